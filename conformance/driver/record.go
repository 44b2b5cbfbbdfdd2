package driver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
)

// Redacted replaces every secret in anything the runner shows.
const Redacted = "[REDACTED]"

// secretHeaders are redacted whatever their value: they carry credentials or
// signatures by definition.
var secretHeaders = map[string]bool{
	"Authorization": true, "Cookie": true, "Set-Cookie": true,
	"X-Api-Key": true, "Proxy-Authorization": true,
}

// Secrets is the set of secret values seen during a run (API keys handed out
// by a target, endpoint secrets). It is shared by every driver of a run so a
// key learned in one scenario is redacted in all of them.
type Secrets struct {
	mu    sync.RWMutex
	known map[string]bool // the secrets added, for a constant-time "seen before"
	// literals are the values, their form-encoded and hex spellings and
	// their base64 fragments, longest first; index files every one of
	// them. squeezed are the same literals as the decoded view spells
	// them (invisible characters dropped), for the search of that view.
	literals   []string
	index      literalIndex
	squeezed   []string
	sqIndex    literalIndex
	sqLiterals map[string]bool
}

// Add registers a secret; values shorter than 6 bytes are ignored because
// redacting them would shred ordinary text.
func (s *Secrets) Add(v string) {
	if len(v) < 6 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.known[v] {
		return
	}
	if s.known == nil {
		s.known = map[string]bool{}
	}
	s.known[v] = true
	// Literals longest first, so a secret that is a prefix of another
	// never leaves the longer one's tail behind.
	lits := append(append(append([]string{v}, formSpellings(v)...), hexSpellings(v)...), base64Fragments(v)...)
	for _, lit := range lits {
		s.literals = insertLongestFirst(s.literals, lit)
		s.index.add(lit)
		s.addSqueezed(squeezeString(lit))
	}
}

// addSqueezed files lit for the search of the decoded view, once; a
// literal that squeezing left shorter than a secret is dropped, as Add
// drops short secrets.
func (s *Secrets) addSqueezed(lit string) {
	if len(lit) < 6 || s.sqLiterals[lit] {
		return
	}
	if s.sqLiterals == nil {
		s.sqLiterals = map[string]bool{}
	}
	s.sqLiterals[lit] = true
	s.squeezed = insertLongestFirst(s.squeezed, lit)
	s.sqIndex.add(lit)
}

func insertLongestFirst(list []string, v string) []string {
	i := sort.Search(len(list), func(i int) bool { return len(list[i]) < len(v) })
	list = append(list, "")
	copy(list[i+1:], list[i:])
	list[i] = v
	return list
}

// fieldSeparators drops the separators of a field name. It is built once:
// secretField runs on every field of every response, and building the
// replacer on each call cost a few per cent of a whole run's CPU.
var fieldSeparators = strings.NewReplacer("_", "", "-", "")

// secretField reports whether a JSON field name names a credential:
// api_key, apiKey, endpointSecret, access_token, PASSWORD... (but not
// idempotency_key, which is an identifier).
func secretField(name string) bool {
	n := strings.ToLower(fieldSeparators.Replace(name))
	for _, tail := range []string{"apikey", "secret", "token", "password"} {
		if strings.HasSuffix(n, tail) {
			return true
		}
	}
	return false
}

// Learn registers every credential-named string field of a JSON body. The
// driver calls it on every response, whatever its status, so a key that a
// broken target hands out where it should have refused is still redacted
// in the failure that reports it.
func (s *Secrets) Learn(body []byte) {
	s.LearnFrom(body, nil)
}

// LearnFrom is Learn reading the body through tree, the response's own
// decoded value, when the body may hold a credential; nil tree decodes
// body.
func (s *Secrets) LearnFrom(body []byte, tree func() (any, error)) {
	if !mayHoldSecret(body) {
		return
	}
	if tree == nil {
		tree = func() (any, error) {
			var v any
			err := json.Unmarshal(body, &v)
			return v, err
		}
	}
	if v, err := tree(); err == nil {
		s.learn(v)
	}
}

// fieldEndings are the tails of credential field names as JSON spells them
// (`"api_key"`, `"apiKey"`, `"SECRET"` all end so, whatever the case of the
// first letter), for a filter that spares parsing most bodies.
var fieldEndings = [][]byte{[]byte(`ey"`), []byte(`EY"`), []byte(`ecret"`), []byte(`ECRET"`),
	[]byte(`oken"`), []byte(`OKEN"`), []byte(`assword"`), []byte(`ASSWORD"`)}

func mayHoldSecret(body []byte) bool {
	if bytes.Contains(body, []byte(`\u`)) {
		return true // a field name may be spelled in escapes ("api\u004bey")
	}
	for _, w := range fieldEndings {
		if bytes.Contains(body, w) {
			return true
		}
	}
	return false
}

func (s *Secrets) learn(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if str, ok := x.(string); ok && secretField(k) {
				s.Add(str)
				continue
			}
			s.learn(x)
		}
	case []any:
		for _, x := range t {
			s.learn(x)
		}
	}
}

// Redact returns text with every registered secret replaced, in every
// spelling it can take in a body or a URL: as learned, JSON-escaped
// (also twice), split by escaped or invisible characters inside a string,
// percent- or form-encoded, as HTML character references, in hex, or
// inside base64 (HTTP Basic). The decoded view finds a key in the decoded
// string values of a JSON document whatever encoding the target chose.
func (s *Secrets) Redact(text string) string {
	if s == nil {
		return text
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.literals) == 0 {
		return text
	}
	text = replaceLiterals(text, s.literals, &s.index)
	if !needsView(text) {
		return text
	}
	present := presentLiterals(string(decodeView(text, false).plain), s.squeezed, &s.sqIndex)
	if len(present) == 0 {
		return text
	}
	if spans := decodeView(text, true).spans(present); len(spans) > 0 {
		text = replaceSpans(text, spans, Redacted)
	}
	return text
}

// headerMap flattens and redacts a header for a transcript.
func (s *Secrets) headerMap(h http.Header) map[string]string {
	if len(h) == 0 {
		return nil
	}
	out := make(map[string]string, len(h))
	for k, vs := range h {
		v := strings.Join(vs, ", ")
		if secretHeaders[http.CanonicalHeaderKey(k)] {
			v = redactCredential(v)
		}
		out[s.redactName(k)] = s.Redact(v)
	}
	return out
}

// redactName redacts a header name: a target may echo a key in one, and
// HTTP canonicalizes a name's case (ak_x becomes Ak_x), so it is searched
// in lower case as well.
func (s *Secrets) redactName(k string) string {
	if r := s.Redact(k); r != k {
		return r
	}
	if lower := strings.ToLower(k); s.Redact(lower) != lower {
		return s.Redact(lower)
	}
	return k
}

// LearnHeader registers the credentials a request carries in its
// credential headers (the part after the scheme of an Authorization
// value, an X-Api-Key, every cookie's value): whatever the runner sends as
// a credential, a made-up one included, is a secret a target may echo.
func (s *Secrets) LearnHeader(h http.Header) {
	if s == nil {
		return
	}
	for k, vs := range h {
		if !secretHeaders[http.CanonicalHeaderKey(k)] {
			continue
		}
		for _, v := range vs {
			for _, part := range strings.Split(v, ";") {
				part = strings.TrimSpace(part)
				if _, cred, ok := strings.Cut(part, " "); ok {
					part = strings.TrimSpace(cred)
				} else if _, cred, ok := strings.Cut(part, "="); ok && strings.Contains(k, "ookie") {
					part = cred
				}
				s.Add(part)
			}
		}
	}
}

// redactCredential keeps the scheme of an Authorization value (so a reader
// sees "Bearer" was sent) and hides the rest.
func redactCredential(v string) string {
	if scheme, _, ok := strings.Cut(v, " "); ok {
		return scheme + " " + Redacted
	}
	return Redacted
}

// Recorder keeps one scenario's transcript and the soft findings (schema
// mismatches) that do not stop a step but still decide its verdict.
//
// Exchanges are kept raw and redacted only when read. That is cheaper on the
// request path, and it is what makes redaction complete: the response that
// discloses a key is recorded before the step has read the key and
// registered it as a secret.
type Recorder struct {
	mu        sync.Mutex
	exchanges []rawExchange
	findings  []error
	routes    map[string]bool // requests that answered this scenario (missing.go)
}

// rawExchange is an exchange as it happened, secrets and all; it never
// leaves the Recorder unredacted.
type rawExchange struct {
	method, url string
	reqHeader   http.Header
	reqBody     []byte
	status      int
	respHeader  http.Header
	respBody    []byte
	elapsed     time.Duration
	note        string
	secrets     *Secrets
}

// redact renders the exchange with every secret known now replaced.
func (x rawExchange) redact() verdict.Exchange {
	s := x.secrets
	if s == nil {
		s = &Secrets{}
	}
	return verdict.Exchange{
		Method: x.method, URL: s.Redact(x.url), Status: x.status, Elapsed: x.elapsed, Note: s.Redact(x.note),
		ReqHeader: s.headerMap(x.reqHeader), ReqBody: s.Clip(x.reqBody),
		RespHeader: s.headerMap(x.respHeader), RespBody: s.Clip(x.respBody),
	}
}

// MaxBody bounds each recorded body so a huge response cannot bloat reports.
const MaxBody = 8 << 10

func (r *Recorder) add(x rawExchange) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.exchanges = append(r.exchanges, x)
}

// Note appends a free-text line to the transcript (for example the seed of a
// property test, or a WebSocket frame).
func (r *Recorder) Note(text string) {
	r.add(rawExchange{note: text})
}

// Finding records a rule failure observed in passing, such as a response that
// does not match the OpenAPI document.
func (r *Recorder) Finding(err error) {
	if r == nil || err == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.findings = append(r.findings, err)
}

// Exchanges returns the transcript so far, redacted.
func (r *Recorder) Exchanges() []verdict.Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]verdict.Exchange, len(r.exchanges))
	for i, x := range r.exchanges {
		out[i] = x.redact()
	}
	return out
}

// Len returns the number of exchanges recorded.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.exchanges)
}

// Findings returns the soft failures so far.
func (r *Recorder) Findings() []error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]error(nil), r.findings...)
}

// Clip redacts b, then bounds it to MaxBody for display. Redacting first
// matters: a cut through the middle of a key would leave its head behind.
func (s *Secrets) Clip(b []byte) string {
	text := string(b)
	if s != nil {
		text = s.Redact(text)
	}
	if len(text) > MaxBody {
		return text[:MaxBody] + "…(truncated)"
	}
	return text
}
