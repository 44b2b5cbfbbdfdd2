package driver

import (
	"context"
	"errors"
	"net/http"
	neturl "net/url"

	"github.com/agentgames/conformance/conformance/verdict"
)

// runEnded reports, before a request is sent, that the run itself is over:
// its --deadline passed or it was interrupted. Such a request is never sent.
func runEnded(ctx context.Context, req Request) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return verdict.Errorf("the run's --deadline passed, so %s %s was not sent", req.Method, req.Path)
	case ctx.Err() != nil:
		return verdict.Errorf("the run was interrupted, so %s %s was not sent", req.Method, req.Path)
	}
	return nil
}

// transportError describes a request that got no complete answer, naming
// the flag that bounded it: --timeout for one request, --deadline for the
// run.
func (d *HTTP) transportError(parent context.Context, req Request, hreq *http.Request, err error) error {
	url := d.opts.Secrets.Redact(hreq.URL.String())
	var ue *neturl.Error
	if errors.As(err, &ue) {
		err = ue.Err // its text repeats the method and URL
	}
	switch {
	case errors.Is(parent.Err(), context.DeadlineExceeded):
		return verdict.Errorf("%s %s: the run's --deadline passed before the answer came", req.Method, url)
	case parent.Err() != nil:
		return verdict.Errorf("%s %s: the run was interrupted before the answer came", req.Method, url)
	case errors.Is(err, context.DeadlineExceeded):
		return verdict.Errorf("%s %s: no complete answer within --timeout %s", req.Method, url, d.opts.Timeout)
	}
	return verdict.Errorf("%s %s: %v", req.Method, url, d.opts.Secrets.Redact(err.Error()))
}
