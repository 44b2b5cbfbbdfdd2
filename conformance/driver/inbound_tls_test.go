package driver_test

import (
	"context"
	"crypto/tls"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/driver"
)

// TestTLSInboundServesHTTPSOnlyToAClientThatTrustsIt: an https Inbound
// refuses a verifying client (its certificate is self-signed) and takes
// the POST of one that does not verify, reporting it to Next.
func TestTLSInboundServesHTTPSOnlyToAClientThatTrustsIt(t *testing.T) {
	in := newInbound(t, driver.InboundOptions{TLS: true})
	require.True(t, strings.HasPrefix(in.URL(), "https://127.0.0.1:"), in.URL())
	_, err := http.Post(in.URL()+"/notify", "application/json", strings.NewReader(`{}`))
	assert.Error(t, err, "a verifying client must not trust a self-signed certificate")
	trusting := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	resp, err := trusting.Post(in.URL()+"/notify", "application/json", strings.NewReader(`{"type":"round_open"}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	r, err := in.Next(ctx)
	require.NoError(t, err)
	assert.Equal(t, "/notify", r.Path)
	assert.JSONEq(t, `{"type":"round_open"}`, string(r.Body))
}
