package pyyol

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// socketPreflight is the gateway's preflight fallback: a deployment may
// serve the agent socket without the HTTP stakes menu (the platform's API
// behind another host, or not offered), so a stakes read that is not a 200
// says only that one optional route is absent. The socket decides: a
// WebSocket upgrade at /agent/connect shows a gateway worth checking (its
// checks judge the hello and everything after it, and the HTTP checks skip
// as not served); a socket that does not upgrade either leaves nothing
// that shows Pyyol, so the target is not taken for it.
func socketPreflight(ctx context.Context, env *suite.Env) (string, bool) {
	url := socketURL(env)
	ws, err := env.DialWS(ctx, url, http.Header{}, driver.WSOptions{})
	if err != nil {
		return "the socket " + env.HTTP.Secrets().Redact(url) + " did not upgrade either: " + dialReason(err), false
	}
	ws.Close()
	return "", true
}

// dialReason is a failed dial's cause without the verdict's prefix.
func dialReason(err error) string {
	var skip *verdict.Skipped
	if errors.As(err, &skip) {
		return strings.TrimPrefix(skip.Reason, "unchecked: ")
	}
	return strings.TrimPrefix(err.Error(), "harness error: ")
}
