// Package faults injects, on demand, the failures a protocol's contract
// documents (a 429 with Retry-After, a 503 quota answer, ...), so an agent
// writer can see their agent meet each one offline. Each reference server
// lists its documented faults (rule ID, status, code, headers, where they
// apply); Wrap puts them in front of the server, draws deterministically
// from the seed whether a request meets one, and logs each injection with
// the rule it exercises. An answered fault changes nothing behind it: the
// request never reaches the server. A fault that acts Through the server
// (a round that rotates mid-play, a challenge that expires at once) marks
// the request instead, and the server brings the documented condition
// about and answers as documented, so state and answer agree.
package faults

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentgames/conformance/reference/audit"
)

// Fault is one failure a contract documents, answered exactly as
// documented.
type Fault struct {
	// Name is the fault's short name, usually its documented code.
	Name string
	// Rule is the catalogue rule the fault exercises.
	Rule string
	// Status is the documented HTTP status.
	Status int
	// Doc says, in the contract's terms, what the fault is.
	Doc string
	// Applies says whether the fault may answer a request: method, path
	// below the protocol's base path, and the body (peeked, not consumed).
	// A fault without Applies happens inside a long-lived exchange (a
	// WebSocket's frames): the server draws it with Socket.Draw.
	Applies func(method, path string, body []byte) bool
	// Answer writes the documented answer (headers, status, body) at now.
	// It is nil for a fault that acts Through the server.
	Answer func(w http.ResponseWriter, now time.Time)
	// Through passes the request on to the server marked with the fault's
	// Name (see Injected): the server itself brings the documented
	// condition about, and its ordinary answer is the fault's.
	Through bool
}

// injectedKey marks a request a Through fault was drawn for.
type injectedKey struct{}

// Injected reports whether a Through fault named name was drawn for the
// request whose context is ctx.
func Injected(ctx context.Context, name string) bool {
	got, _ := ctx.Value(injectedKey{}).(string)
	return got != "" && got == name
}

// WithInjected marks ctx as carrying the Through fault name; servers' tests
// use it to bring a condition about without an injector.
func WithInjected(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, injectedKey{}, name)
}

// Options tune an injector.
type Options struct {
	// Rate is the chance (0..1] that a request a fault applies to meets one.
	Rate float64
	// Seed makes the draws reproducible for the same request sequence.
	Seed uint64
	// Base is the protocol's base path, stripped before Applies sees a path.
	Base string
	// Log receives one line per injected fault; nil logs nothing.
	Log *log.Logger
	// Now is the clock the answers are dated by; nil is the wall clock.
	Now func() time.Time
}

// maxPeek bounds the body an injector reads to decide; a larger body is
// passed through untouched by any body-dependent fault.
const maxPeek = 64 << 10

// Wrap puts faults in front of h.
func Wrap(h http.Handler, faults []Fault, o Options) http.Handler {
	if len(faults) == 0 || o.Rate <= 0 {
		return h
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	inj := &injector{next: h, faults: faults, o: o, rng: rand.New(rand.NewPCG(o.Seed, 0x6661756c7473))}
	return inj
}

type injector struct {
	next   http.Handler
	faults []Fault
	o      Options
	mu     sync.Mutex
	rng    *rand.Rand
	seen   atomic.Int64 // requests served so far, to number the one a fault meets
}

// requestName names, for the fault log, the request a fault was injected
// into, so an agent writer can find it in their own log: its method and
// target (audit.Target: path and query with no value that could be a
// key), the agent its key names (audit.AgentName, never the key) and its
// number among serve's requests.
func requestName(r *http.Request, n int64) string {
	key := audit.RequestKey(r)
	return fmt.Sprintf("%s %s (%s, request #%d)", r.Method, audit.Target(r, key), audit.AgentName(key), n)
}

func (in *injector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	in.seen.Add(1)
	body := peekBody(r)
	path := strings.TrimPrefix(r.URL.Path, strings.TrimSuffix(in.o.Base, "/"))
	if path == "" {
		path = "/"
	}
	f, ok := in.draw(r.Method, path, body)
	if !ok {
		in.next.ServeHTTP(w, r.WithContext(withSocket(r.Context(), in, audit.Target(r, audit.RequestKey(r)))))
		return
	}
	if in.o.Log != nil {
		in.o.Log.Printf("fault injected: %s %s %d into %s (%s)", f.Rule, f.Name, f.Status, requestName(r, in.seen.Load()), f.Doc)
	}
	if f.Through {
		in.next.ServeHTTP(w, r.WithContext(WithInjected(r.Context(), f.Name)))
		return
	}
	f.Answer(w, in.o.Now())
}

// draw decides, under the lock so the sequence is reproducible, whether
// this request meets a fault and which one.
func (in *injector) draw(method, path string, body []byte) (Fault, bool) {
	var fit []Fault
	for _, f := range in.faults {
		if f.Applies != nil && f.Applies(method, path, body) {
			fit = append(fit, f)
		}
	}
	if len(fit) == 0 {
		return Fault{}, false
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.rng.Float64() >= in.o.Rate {
		return Fault{}, false
	}
	return fit[in.rng.IntN(len(fit))], true
}

// peekBody reads the request body and puts it back for the server.
func peekBody(r *http.Request) []byte {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxPeek+1))
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(raw), r.Body), r.Body}
	if err != nil || len(raw) > maxPeek {
		return nil
	}
	return raw
}
