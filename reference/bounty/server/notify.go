package server

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/skeleton"
)

// notifyTimeout bounds one round_open POST.
const notifyTimeout = 5 * time.Second

// notifier POSTs the engine's round_open notices (BOUNTY-ROUND-OPEN-NOTICE).
// The body is {"type": "round_open", "round": N, "challenge_id": ...}, the
// contract names no shape (BOUNTY-REF-NOTIFY). Redirects are not followed,
// the answer is never read past 4 KiB, and the development reference
// trusts any certificate of a loopback notify_url only (an agent writer's,
// or the kit's own self-signed endpoint); every other host is verified.
type notifier struct {
	verified, loopback *http.Client
}

func newNotifier() *notifier {
	noRedirect := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	// trusting takes any certificate; deliver uses it for loopback URLs only.
	trusting := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, Proxy: nil}
	return &notifier{
		verified: &http.Client{Timeout: notifyTimeout, CheckRedirect: noRedirect},
		loopback: &http.Client{Timeout: notifyTimeout, CheckRedirect: noRedirect, Transport: trusting},
	}
}

// deliver POSTs each notice in order, one at a time, off the request path.
func (n *notifier) deliver(notices []bounty.Notice) {
	for _, nt := range notices {
		body, _ := json.Marshal(map[string]any{"type": "round_open", "round": nt.Round, "challenge_id": nt.ChallengeID})
		client := n.verified
		if skeleton.LoopbackURL(nt.URL) {
			client = n.loopback
		}
		ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, nt.URL, bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			if resp, err := client.Do(req); err == nil {
				io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
				resp.Body.Close()
			}
		}
		cancel()
	}
}
