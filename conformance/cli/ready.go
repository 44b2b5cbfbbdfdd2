package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/agentgames/conformance/conformance/report"
)

// signalReady waits until the server at addr answers an HTTP request (its
// index at /), then writes "http://ADDR\n" to path atomically (a temporary
// file renamed over it), so a script that waits for the file never reads
// a half-written one nor starts before serve accepts. serve removes the
// file when it stops.
func signalReady(ctx context.Context, addr, path string) error {
	url := "http://" + addr + "/"
	if err := awaitAnswer(ctx, url, 30*time.Second); err != nil {
		return err
	}
	return report.WriteFile(path, func(w io.Writer) error {
		_, err := fmt.Fprintln(w, "http://"+addr)
		return err
	})
}

// awaitAnswer polls url until it gives an HTTP answer (any status but
// 502, 503 and 504, which a proxy or a starting server gives before the
// service is up: a 404 is an answer), backing off from 50 ms to 1 s
// between tries; it fails when timeout passes or ctx ends first, with the
// last error seen.
func awaitAnswer(ctx context.Context, url string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	pause := 50 * time.Millisecond
	for {
		err := answers(ctx, client, url)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s did not answer within %s (last try: %v)", url, timeout, err)
		case <-time.After(pause):
		}
		pause = min(2*pause, time.Second)
	}
}

// answers makes one GET of url, bounded by a few seconds so a server that
// accepts but never answers does not use up the whole wait at once.
func answers(ctx context.Context, client *http.Client, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		// A proxy or a server still starting: not ready yet.
		return fmt.Errorf("answered %d", resp.StatusCode)
	}
	return nil
}
