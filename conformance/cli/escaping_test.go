package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
)

// escapingTarget serves the reference, re-encoding every JSON answer with
// each string JSON-escaped (`\/`, and every other character as an
// upper-case `\u` escape), as some deployments do; the decoded content is
// unchanged. It keeps every key it hands out. Its Iyra actions answer is
// broken and echoes the caller's key, escaped, so failures quote it.
type escapingTarget struct {
	ref  http.Handler
	mu   sync.Mutex
	keys map[string]bool
}

func (e *escapingTarget) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, "/actions") && strings.Contains(r.URL.Path, "/api/v5/") {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"revision":"not-a-number","echo":%s}`, escapeString(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")))
		return
	}
	rec := httptest.NewRecorder()
	e.ref.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&v) == nil {
		e.collect(v)
		body = []byte(escapeJSON(v))
	}
	for k, vs := range rec.Header() {
		w.Header()[k] = vs
	}
	w.Header().Del("Content-Length")
	w.WriteHeader(rec.Code)
	w.Write(body)
}

func (e *escapingTarget) collect(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			n := strings.ToLower(strings.ReplaceAll(k, "_", ""))
			if s, ok := x.(string); ok && (strings.HasSuffix(n, "apikey") || strings.HasSuffix(n, "secret") || strings.HasSuffix(n, "token")) {
				e.mu.Lock()
				e.keys[s] = true
				e.mu.Unlock()
			}
			e.collect(x)
		}
	case []any:
		for _, x := range t {
			e.collect(x)
		}
	}
}

func escapeJSON(v any) string {
	switch t := v.(type) {
	case map[string]any:
		var parts []string
		for k, x := range t {
			parts = append(parts, escapeString(k)+":"+escapeJSON(x))
		}
		return "{" + strings.Join(parts, ",") + "}"
	case []any:
		var parts []string
		for _, x := range t {
			parts = append(parts, escapeJSON(x))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case string:
		return escapeString(t)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// escapeString writes s as a JSON string with `\/` and every other
// character as an upper-case \u escape.
func escapeString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range []rune(s) {
		switch {
		case r == '/':
			b.WriteString(`\/`)
		case i%2 == 1 || r == '"' || r == '\\' || r < 0x20:
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(&b, `\u%04X`, u)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// unspell undoes every spelling a key could take in a report: HTML
// entities, JSON escapes (also doubly escaped: any run of backslashes
// before u and four hex digits, or before /), percent-encoding.
func unspell(text string) string {
	for i := 0; i < 3; i++ {
		text = unescapePercent(unescapeJSON(html.UnescapeString(text)))
	}
	return text
}

// unescapeJSON replaces every run of backslashes followed by u and four
// hex digits with the character they name, and every run followed by /
// with /; any other backslash stays.
func unescapeJSON(text string) string {
	if !strings.Contains(text, `\`) {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		if text[i] != '\\' {
			b.WriteByte(text[i])
			i++
			continue
		}
		j := i
		for j < len(text) && text[j] == '\\' {
			j++
		}
		switch {
		case j+5 <= len(text) && text[j] == 'u' && isHex(text[j+1:j+5]):
			n, _ := strconv.ParseUint(text[j+1:j+5], 16, 32)
			b.WriteRune(rune(n))
			i = j + 5
		case j < len(text) && text[j] == '/':
			b.WriteByte('/')
			i = j + 1
		default:
			b.WriteString(text[i:j])
			i = j
		}
	}
	return b.String()
}

// unescapePercent replaces every %XX with the byte it names.
func unescapePercent(text string) string {
	if !strings.Contains(text, "%") {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if text[i] == '%' && i+3 <= len(text) && isHex(text[i+1:i+3]) {
			n, _ := strconv.ParseUint(text[i+1:i+3], 16, 8)
			b.WriteByte(byte(n))
			i += 2
			continue
		}
		b.WriteByte(text[i])
	}
	return b.String()
}

func isHex(s string) bool {
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// TestATargetThatEscapesItsKeysLeaksNoneOfThem: no console line, report or
// case file holds a key the target handed out, in any spelling.
func TestATargetThatEscapesItsKeysLeaksNoneOfThem(t *testing.T) {
	t.Parallel()
	target := &escapingTarget{ref: cli.ServeMux(protocols.All(), 1, log.New(io.Discard, "", 0)), keys: map[string]bool{}}
	srv := httptest.NewServer(target)
	defer srv.Close()
	for protocol, base := range map[string]string{"iyra": srv.URL, "phantom-press": srv.URL + "/game/phantom-press/api"} {
		_, texts := runWithReports(t, base, protocol)
		if protocol == "iyra" {
			require.Greater(t, len(texts)-2, 3, "the broken actions answer wrote case files")
		}
		target.mu.Lock()
		require.NotEmpty(t, target.keys, "the target handed out keys")
		for name, text := range texts {
			plain := unspell(text)
			for key := range target.keys {
				if strings.Contains(plain, key) {
					t.Errorf("%s: %s holds key %s", protocol, name, key)
				}
			}
		}
		target.mu.Unlock()
	}
}

// runWithReports runs the runner against base as protocol with every
// report file written into a fresh folder, and returns the exit code and
// every text a user could read: stdout, stderr and each file by name.
func runWithReports(t *testing.T, base, protocol string) (int, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	code, out, errOut := run("run", "--target", base, "--protocol", protocol, "--checks", "1", "--cases", dir,
		"--junit", filepath.Join(dir, "r.xml"), "--json", filepath.Join(dir, "r.json"), "--html", filepath.Join(dir, "r.html"))
	require.NotEqual(t, 2, code, "%s: %s\n%s", protocol, tail(out), errOut)
	texts := map[string]string{"stdout": out, "stderr": errOut}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		texts[filepath.Base(f)] = string(raw)
	}
	return code, texts
}
