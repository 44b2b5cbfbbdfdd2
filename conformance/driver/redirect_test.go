package driver_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/verdict"
)

// TestARedirectIsNeverFollowed: a target that answers 307 to another port of
// the same host must not receive the key or the write body there; the
// redirect is a harness error naming the Location, and the write is sent once.
func TestARedirectIsNeverFollowed(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
	}))
	defer other.Close()
	var sent atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL})
	for _, method := range []string{"GET", "POST"} {
		_, err := d.Do(context.Background(), driver.Request{Method: method, Path: "/w",
			Header: map[string]string{"Authorization": "Bearer aa_secret_key_123456"}, JSON: map[string]int{"a": 1}})
		var he *verdict.HarnessError
		require.True(t, errors.As(err, &he), "%s: a redirect is a harness error, got %v", method, err)
		assert.Contains(t, err.Error(), other.URL+"/w", "the error names the Location")
	}
	assert.Zero(t, elsewhere.Load(), "the other origin received nothing")
	assert.Equal(t, int32(2), sent.Load(), "each request was sent once, never resent")
}

// TestALinkCannotMoveARequestToAnotherHost: whatever a target-supplied path
// appended to the base URL makes of it, the request stays on the origin.
func TestALinkCannotMoveARequestToAnotherHost(t *testing.T) {
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: "http://127.0.0.1:1"})
	_, err := d.Do(context.Background(), driver.Request{Method: "GET", Path: "@evil.example/steal",
		Header: map[string]string{"Authorization": "Bearer aa_secret_key_123456"}})
	var he *verdict.HarnessError
	require.True(t, errors.As(err, &he), "got %v", err)
	assert.Contains(t, err.Error(), "not the target's origin")
}
