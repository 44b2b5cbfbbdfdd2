package agentaudit

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Call is one HTTP request a scripted agent sends; the zero Key and Idem
// leave their headers out.
type Call struct {
	Method, URL string
	Key         string // sent as a Bearer key
	Idem        string // Idempotency-Key
	Body        string
}

// Answer is what the server answered.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// Decode reads the answer's JSON body into v.
func (a Answer) Decode(v any) error {
	if err := json.Unmarshal(a.Body, v); err != nil {
		return fmt.Errorf("answer %d: %w: %s", a.Status, err, a.Body)
	}
	return nil
}

// Do sends c and reads the whole answer.
func Do(ctx context.Context, c Call) (Answer, error) {
	var body io.Reader
	if c.Body != "" {
		body = strings.NewReader(c.Body)
	}
	req, err := http.NewRequestWithContext(ctx, c.Method, c.URL, body)
	if err != nil {
		return Answer{}, err
	}
	if c.Body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Key != "" {
		req.Header.Set("Authorization", "Bearer "+c.Key)
	}
	if c.Idem != "" {
		req.Header.Set("Idempotency-Key", c.Idem)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return Answer{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return Answer{Status: resp.StatusCode, Header: resp.Header, Body: raw}, err
}

// JSON marshals v for a request body.
func JSON(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}

// expect returns a check that fails unless an answer's status is want,
// naming what was sent: expect(200, "verify")(Do(ctx, call)).
func expect(want int, what string) func(Answer, error) (Answer, error) {
	return func(a Answer, err error) (Answer, error) {
		if err != nil {
			return a, fmt.Errorf("%s: %w", what, err)
		}
		if a.Status != want {
			return a, fmt.Errorf("%s: answered %d, not %d: %s", what, a.Status, want, a.Body)
		}
		return a, nil
	}
}
