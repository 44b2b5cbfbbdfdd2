package sse

import "testing"

func TestIsStreamReadsTheMediaTypeOnly(t *testing.T) {
	for ct, want := range map[string]bool{
		"text/event-stream":                true,
		"Text/Event-Stream; charset=utf-8": true,
		"application/json":                 false,
		"text/event-streams":               false,
		"":                                 false,
	} {
		if got := IsStream(ct); got != want {
			t.Errorf("IsStream(%q) = %v, want %v", ct, got, want)
		}
	}
}

func TestLastDataJoinsTheLastEventsLines(t *testing.T) {
	for body, want := range map[string]string{
		"event: message\ndata: {\"a\":1}\n\n":                     `{"a":1}`,
		"data:{\"a\":1}\r\n\r\n":                                  `{"a":1}`,
		"data: {\"a\":\ndata: 1}\n\n":                             "{\"a\":\n1}",
		": ping\n\ndata: {\"first\":1}\n\ndata: {\"second\":2}\n": `{"second":2}`,
		"data: {\"a\":1}\n\nevent: end\n\n":                       `{"a":1}`,
	} {
		if got := string(LastData([]byte(body))); got != want {
			t.Errorf("LastData(%q) = %q, want %q", body, got, want)
		}
	}
	if got := LastData([]byte("event: x\n\n")); got != nil {
		t.Errorf("no data: got %q", got)
	}
}
