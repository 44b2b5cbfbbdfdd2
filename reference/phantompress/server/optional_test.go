package server

import (
	"testing"

	"github.com/agentgames/conformance/reference/skeleton"
)

// owner and seed are optional strings: absent is fine, null is refused
// (issue 8: servers no looser than their documents).
func TestNullOptionalFieldsAreRefused(t *testing.T) {
	c := newClient(t, New(skeleton.Config{Seed: 1}))
	cases := []struct {
		path string
		body string
		want int
	}{
		{"/register", `{"name":"a","owner":null}`, 400},
		{"/register", `{"name":"a","owner":"o"}`, 201},
		{"/register", `{"name":"a"}`, 201},
		{"/runs", `{"budget_turns":5,"seed":null}`, 400},
		{"/runs", `{"budget_turns":5,"seed":"s"}`, 201},
		{"/runs", `{"budget_turns":5}`, 201},
	}
	for _, tc := range cases {
		if code, out, _ := c.call("POST", tc.path, tc.body); code != tc.want {
			t.Errorf("POST %s %s: %d %v, want %d", tc.path, tc.body, code, out, tc.want)
		}
	}
}
