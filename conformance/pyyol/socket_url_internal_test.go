package pyyol

import "testing"

// TestASocketURLIsTheTargetOrTheDocumentedPathUnderIt: a ws(s) target
// naming a socket is dialled as given; one naming only the API's base
// (the README's /v1, or no path), like an http(s) base, gets the
// documented /agent/connect below it.
func TestASocketURLIsTheTargetOrTheDocumentedPathUnderIt(t *testing.T) {
	cases := map[string]string{
		"ws://h:1/v1/agent/connect":   "ws://h:1/v1/agent/connect",
		"ws://h:1/v1/agent/connect/":  "ws://h:1/v1/agent/connect",
		"wss://h/socket":              "wss://h/socket",
		"ws://h:1/v1":                 "ws://h:1/v1/agent/connect",
		"ws://h:1/v1/":                "ws://h:1/v1/agent/connect",
		"wss://h/pyyol/v1":            "wss://h/pyyol/v1/agent/connect",
		"ws://h:1":                    "ws://h:1/agent/connect",
		"http://h:1/v1":               "ws://h:1/v1/agent/connect",
		"https://h/v1":                "wss://h/v1/agent/connect",
		"https://h/v1/agent/connect/": "wss://h/v1/agent/connect",
	}
	for target, want := range cases {
		if got := gatewaySocketURL(target); got != want {
			t.Errorf("%s: socket %s, want %s", target, got, want)
		}
	}
}
