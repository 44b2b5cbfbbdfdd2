package skeleton

import "testing"

func TestLoopbackURL(t *testing.T) {
	for raw, want := range map[string]bool{
		"http://127.0.0.1:8080/v1": true, "https://localhost/x": true, "http://[::1]:9/": true, "http://127.8.9.10/": true,
		"https://203.0.113.9/": false, "https://agent.example/notify": false, "http://[fd00::2]:1/": false, "::not a url": false,
	} {
		if got := LoopbackURL(raw); got != want {
			t.Errorf("LoopbackURL(%q) = %v, want %v", raw, got, want)
		}
	}
}
