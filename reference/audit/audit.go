// Package audit watches the agents that play against the reference
// servers (serve --audit) and records every agent-side rule of a contract
// they break: the key in a URL, Retry-After ignored, a write repeated
// under a fresh key, and so on. Each protocol supplies a Watcher that
// knows its contract's rules for agents; this package captures each
// exchange, names the agent without ever keeping its key, and collects the
// findings into a per-agent report.
package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
)

// Exchange is one request of an agent and the answer it got.
type Exchange struct {
	// Agent names the agent by a digest of its Bearer key ("anonymous"
	// without one); the key itself is never kept.
	Agent    string
	Method   string
	Path     string // below the protocol's base path
	RawQuery string
	Header   http.Header // request headers, Authorization removed
	Body     []byte
	// Key is the Bearer key, for a Watcher that must recognise it in a URL;
	// it is never written to a finding or a report.
	Key        string
	Status     int
	RespHeader http.Header
	RespBody   []byte
	At         time.Time
}

// Request names the exchange in a finding: method and path, never the
// query (which might hold a secret).
func (e *Exchange) Request() string { return e.Method + " " + e.Path }

// Finding is one agent-side rule an agent broke.
type Finding struct {
	Protocol string    `json:"protocol"`
	Rule     string    `json:"rule"`
	Request  string    `json:"request"`
	At       time.Time `json:"at"`
	Detail   string    `json:"detail"`
	// Status, Query and Body show the offending request and its answer,
	// every secret redacted (Exchange.redact).
	Status int    `json:"status"`
	Query  string `json:"query,omitempty"`
	Body   string `json:"body,omitempty"`
}

// Watcher knows one contract's rules for agents; it sees every exchange of
// its protocol in order and returns what the exchange broke.
type Watcher interface {
	Watch(ex *Exchange) []Finding
}

// Namer is a Watcher whose contract names agents in the requests rather
// than by a key (the bounty's agent_id): AgentOf returns the agent an
// exchange speaks for, "" when it names none (the exchange then keeps the
// key's digest, or "anonymous").
type Namer interface {
	AgentOf(ex *Exchange) string
}

// Issuer is a Watcher whose contract hands agents their keys in answers
// (Iyra's api_key at verification): IssuedKeys returns the keys an
// exchange's answer issued, so a key the agent then sends only in a URL
// is still known to be its own.
type Issuer interface {
	IssuedKeys(ex *Exchange) []string
}

// Auditor collects the findings of every protocol's watcher, per agent.
type Auditor struct {
	mu     sync.Mutex
	agents map[string]*AgentRecord
	// issued names the agents whose keys an answer issued (Issuer), by
	// digest only: the audit keeps no key.
	issued  map[string]bool
	now     func() time.Time
	maxBody int
	// blindFrames drops the findings of Frames reports (BlindFrames).
	blindFrames atomic.Bool
	// started is when the audit began; seed is the seed of the servers
	// it watches (SetSeed), so its report says which world it audited.
	started time.Time
	seed    atomic.Uint64
}

// SetSeed records the seed of the servers the auditor watches.
func (a *Auditor) SetSeed(seed uint64) { a.seed.Store(seed) }

// Seed is the seed SetSeed recorded (0: none).
func (a *Auditor) Seed() uint64 { return a.seed.Load() }

// Started is when the audit began.
func (a *Auditor) Started() time.Time { return a.started }

// Now is the auditor's clock.
func (a *Auditor) Now() time.Time { return a.now() }

// AgentRecord is what the audit saw of one agent.
type AgentRecord struct {
	Agent    string         `json:"agent"`
	Requests map[string]int `json:"requests"` // per protocol
	Findings []Finding      `json:"findings"`
}

// New returns an empty auditor dated by now (nil: the wall clock).
func New(now func() time.Time) *Auditor {
	if now == nil {
		now = time.Now
	}
	return &Auditor{agents: map[string]*AgentRecord{}, issued: map[string]bool{}, now: now, maxBody: 64 << 10, started: now()}
}

// Wrap puts the auditor in front of one protocol's server, mounted at base.
func (a *Auditor) Wrap(h http.Handler, protocol, base string, w Watcher) http.Handler {
	var order sync.Mutex // a watcher sees its protocol's exchanges one at a time
	base = strings.TrimSuffix(base, "/")
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		ex := a.capture(r, base)
		if n, ok := w.(Namer); ok && ex.Key == "" {
			if id := n.AgentOf(ex); id != "" {
				ex.Agent = id
			}
		}
		rec := &recorder{ResponseWriter: rw, status: http.StatusOK, max: a.maxBody}
		h.ServeHTTP(rec, r.WithContext(withFrames(r.Context(), a, protocol)))
		ex.Status, ex.RespHeader, ex.RespBody, ex.At = rec.status, rw.Header().Clone(), rec.body.Bytes(), a.now()
		order.Lock()
		found := w.Watch(ex)
		order.Unlock()
		if is, ok := w.(Issuer); ok {
			a.learnIssued(is.IssuedKeys(ex))
		}
		for i := range found {
			found[i] = ex.redact(found[i])
		}
		a.record(protocol, ex.Agent, found)
	})
}

// capture reads what an exchange needs from the request, putting the body
// back for the server.
func (a *Auditor) capture(r *http.Request, base string) *Exchange {
	key := RequestKey(r)
	if key == "" {
		// A key sent in the URL (a rule for agents forbids it) is still the
		// agent's key: the finding is filed under the agent it belongs to,
		// not under "anonymous".
		key = a.knownKeyIn(r.URL)
	}
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		body, _ = io.ReadAll(io.LimitReader(r.Body, int64(a.maxBody)+1))
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
	}
	h := r.Header.Clone()
	h.Del("Authorization")
	path := strings.TrimPrefix(r.URL.Path, base)
	return &Exchange{Agent: AgentName(key), Method: r.Method, Path: path, RawQuery: r.URL.RawQuery,
		Header: h, Body: body, Key: key}
}

// queryKey is the value of the first credential-named query parameter
// (api_key, token, ...; secretName), in name order, or "".
func queryKey(q url.Values) string {
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if v := strings.TrimSpace(q.Get(name)); secretName(name) && v != "" {
			return v
		}
	}
	return ""
}

// knownKeyIn finds, in a URL with no credential-named parameter, the key
// of an agent the audit already knows: a token of the path or of a query
// value whose digest names a known agent (a key sent in a path segment,
// or under a name such as "k"). Only digests are compared: the audit
// keeps no key to look for.
func (a *Auditor) knownKeyIn(u *url.URL) string {
	tokens := urlTokens(u.Path)
	for _, vs := range u.Query() {
		for _, v := range vs {
			tokens = append(tokens, urlTokens(v)...)
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, t := range tokens {
		name := AgentName(t)
		if _, known := a.agents[name]; known || a.issued[name] {
			return t
		}
	}
	return ""
}

// learnIssued remembers the digests of keys an answer issued.
func (a *Auditor) learnIssued(keys []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, k := range keys {
		if k != "" {
			a.issued[AgentName(k)] = true
		}
	}
}

// urlTokens splits a decoded path or query value into the runs of
// characters a key is made of (letters, digits and "-._~").
func urlTokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("-._~", r)
	})
}

// AgentName names an agent by its key without revealing it: a short
// SHA-256 digest, the same for every request carrying the key.
func AgentName(key string) string {
	if key == "" {
		return "anonymous"
	}
	sum := sha256.Sum256([]byte(key))
	return "agent-" + hex.EncodeToString(sum[:6])
}

func (a *Auditor) record(protocol, agent string, found []Finding) {
	a.mu.Lock()
	defer a.mu.Unlock()
	rec := a.agents[agent]
	if rec == nil {
		rec = &AgentRecord{Agent: agent, Requests: map[string]int{}, Findings: []Finding{}}
		a.agents[agent] = rec
	}
	rec.Requests[protocol]++
	for _, f := range found {
		f.Protocol = protocol
		rec.Findings = append(rec.Findings, f)
	}
}

// Agents returns a copy of every agent's record, sorted by name.
func (a *Auditor) Agents() []AgentRecord {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]AgentRecord, 0, len(a.agents))
	for _, r := range a.agents {
		c := AgentRecord{Agent: r.Agent, Requests: map[string]int{}, Findings: append([]Finding{}, r.Findings...)}
		for k, v := range r.Requests {
			c.Requests[k] = v
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Agent < out[j].Agent })
	return out
}

// recorder keeps the status and the first max bytes of an answer.
type recorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
	max    int
	wrote  bool
}

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	if room := r.max - r.body.Len(); room > 0 {
		r.body.Write(b[:min(room, len(b))])
	}
	return r.ResponseWriter.Write(b)
}

// Flush passes a flush through, for streaming answers.
func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
