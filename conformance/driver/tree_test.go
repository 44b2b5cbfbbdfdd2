package driver_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/driver"
)

// treeSpy is a validator that keeps the decoded value the driver hands it.
type treeSpy struct{ got *any }

func (s treeSpy) Validate(_ *http.Request, _ int, _ http.Header, _ []byte, tree func() (any, error)) error {
	v, err := tree()
	if err == nil {
		*s.got = v
	}
	return nil
}

// A response's body is decoded once: the validator and every later reader
// of Tree see the same value, so no check pays for its own decode.
func TestAResponseIsDecodedOnceForEveryReader(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"api_key":"k-123456789","state":{"turn":3}}`))
	}))
	defer srv.Close()
	var seen any
	secrets := &driver.Secrets{}
	d := driver.NewHTTP(driver.HTTPOptions{BaseURL: srv.URL, Validator: treeSpy{&seen}, Secrets: secrets}).WithRecorder(&driver.Recorder{})
	resp, err := d.Do(context.Background(), driver.Request{Method: http.MethodGet, Path: "/x"})
	require.NoError(t, err)
	first, err := resp.Tree()
	require.NoError(t, err)
	again, _ := resp.Tree()
	require.NotNil(t, seen, "the validator was handed the response's tree")
	assert.Equal(t, reflect.ValueOf(first).Pointer(), reflect.ValueOf(seen).Pointer(), "the validator read the same decoded value")
	assert.Equal(t, reflect.ValueOf(first).Pointer(), reflect.ValueOf(again).Pointer(), "a second Tree call decodes nothing")
	assert.Equal(t, map[string]any{"turn": float64(3)}, first.(map[string]any)["state"])
	assert.NotContains(t, secrets.Redact(`key k-123456789`), "k-123456789", "the secret scan read the tree too")
}

// A body that is not JSON gives Tree's error every time, never a value.
func TestATreeOfNoJSONIsAnError(t *testing.T) {
	r := &driver.Response{Status: 200, Body: []byte(`<html>`)}
	_, err := r.Tree()
	require.Error(t, err)
	_, again := r.Tree()
	assert.Equal(t, err, again)
}
