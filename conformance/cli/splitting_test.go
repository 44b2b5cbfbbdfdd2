package cli_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
)

// splittingTarget serves the reference and echoes the caller's key (its
// bearer credential) in every JSON object it answers, in spellings that
// break the literal inside a JSON string: split by `\n`, by `\r\n` and a
// tab, every character `\u`-escaped, every other character `\u`-escaped
// around `\/`, and (in error answers) inside the message. Headers carry
// it percent-encoded, and in base64. It keeps every key it saw.
type splittingTarget struct {
	ref  http.Handler
	mu   sync.Mutex
	keys map[string]bool
}

func (s *splittingTarget) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if len(key) < 8 || strings.ContainsAny(key, " \"\\") {
		s.ref.ServeHTTP(w, r)
		return
	}
	s.mu.Lock()
	s.keys[key] = true
	s.mu.Unlock()
	rec := httptest.NewRecorder()
	s.ref.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	if bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) {
		body = echoInto(body, key, rec.Code >= 400)
	}
	for k, vs := range rec.Header() {
		w.Header()[k] = vs
	}
	w.Header().Del("Content-Length")
	w.Header().Set("X-Debug-Key", url.QueryEscape(key[:4])+"%"+fmt.Sprintf("%02X", key[4])+url.QueryEscape(key[5:]))
	w.Header().Set("X-Debug-Basic", base64.StdEncoding.EncodeToString([]byte("agent:"+key)))
	w.WriteHeader(rec.Code)
	w.Write(body)
}

// echoInto adds the key's split spellings to the JSON object body, and
// to its message when the answer is an error.
func echoInto(body []byte, key string, failed bool) []byte {
	half := len(key) / 2
	fields := []string{
		`"echo_lf":"` + key[:half] + `\n` + key[half:] + `"`,
		`"echo_crlf":"` + key[:3] + `\r\n` + key[3:half] + `\t` + key[half:] + `"`,
		`"echo_u":"` + uEscape(key, 1) + `"`,
		`"echo_mixed":"\/` + uEscape(key, 2) + `\/"`,
		`"echo_nested":` + mustJSON(`{"key":"`+key[:half]+`\n`+key[half:]+`"}`),
	}
	if failed {
		fields = append(fields, `"message":"your key `+uEscape(key[:half], 2)+`\n`+key[half:]+` was refused"`)
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(body, &probe) != nil {
		return body
	}
	delete(probe, "message")
	out, _ := json.Marshal(probe)
	if len(probe) == 0 {
		return []byte("{" + strings.Join(fields, ",") + "}")
	}
	return append(append(out[:len(out)-1], []byte(","+strings.Join(fields, ",")+"}")...), '\n')
}

// uEscape spells every every-th character of s as a lower-case \u escape.
func uEscape(s string, every int) string {
	var b strings.Builder
	for i, c := range []byte(s) {
		if i%every == 0 {
			fmt.Fprintf(&b, `\u%04x`, c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// lineBreakEscapes matches any run of backslashes before n, r or t: a line
// break or tab escaped once, twice or more.
var lineBreakEscapes = regexp.MustCompile(`\\+[nrt]`)

// joined undoes every spelling (unspell) and then every split: escaped
// line breaks and tabs and all whitespace are dropped, so a key broken
// across them reads whole again.
func joined(text string) string {
	for i := 0; i < 3; i++ {
		text = lineBreakEscapes.ReplaceAllString(unspell(text), "")
	}
	return strings.Join(strings.Fields(text), "")
}

// TestATargetThatSplitsTheKeyLeaksItNowhere: a target that echoes the
// run's key split by escaped line breaks, \u escapes and \/ inside JSON
// strings, in bodies and error messages, leaks it into no console line,
// JSON, JUnit or HTML report or case file.
func TestATargetThatSplitsTheKeyLeaksItNowhere(t *testing.T) {
	t.Parallel()
	target := &splittingTarget{ref: cli.ServeMux(protocols.All(), 1, log.New(io.Discard, "", 0)), keys: map[string]bool{}}
	srv := httptest.NewServer(target)
	defer srv.Close()
	// In this order: the bounty sends no bearer key of its own, so it runs
	// after the two that do, against a target that echoes their keys too.
	for _, protocol := range []string{"iyra", "forge", "bounty"} {
		base := srv.URL
		code, texts := runWithReports(t, base, protocol)
		require.GreaterOrEqual(t, len(texts)-2, 3, "%s: the reports were written", protocol)
		t.Logf("%s: exit %d, %d files; %s", protocol, code, len(texts)-2, tail(texts["stdout"]))
		target.mu.Lock()
		require.NotEmpty(t, target.keys, "%s: the runner sent keys", protocol)
		for name, text := range texts {
			plain := joined(text)
			for key := range target.keys {
				if strings.Contains(plain, key) {
					i := strings.Index(plain, key)
					t.Errorf("%s: %s holds key %s: …%s…", protocol, name, key, plain[max(0, i-300):min(len(plain), i+100)])
				}
			}
		}
		target.mu.Unlock()
	}
}
