// Package agentaudit runs the scenarios of the contracts' rules for agents
// (features/<folder>/agents.feature): each scripted agent plays against a
// protocol's reference server wrapped in the audit, as serve --audit wraps
// it, and the scenario checks what the audit names. The scripted agents,
// rude and well-behaved, live here so that the cli's audit tests play the
// very same ones.
package agentaudit

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"time"

	"github.com/agentgames/conformance/conformance/protocols"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/audit"
	bountyserver "github.com/agentgames/conformance/reference/bounty/server"
	"github.com/agentgames/conformance/reference/faults"
	forgeserver "github.com/agentgames/conformance/reference/forge/server"
	iyraserver "github.com/agentgames/conformance/reference/iyra/server"
	pp "github.com/agentgames/conformance/reference/phantompress/server"
	pyyolserver "github.com/agentgames/conformance/reference/pyyol/server"
	sxserver "github.com/agentgames/conformance/reference/shareexchange/server"
)

// Watchers lists, per protocol, the watcher of its contract's rules for
// agents (serve --audit uses the same list). A protocol missing here is
// served unwatched.
var Watchers = map[string]func() audit.Watcher{
	"iyra":           iyraserver.NewAuditor,
	"forge":          forgeserver.NewAuditor,
	"phantom-press":  pp.NewAuditor,
	"bounty":         bountyserver.NewAuditor,
	"share-exchange": sxserver.NewAuditor,
	"pyyol-gateway":  pyyolserver.NewAuditor,
}

// Folder names a data folder holding an agents.feature and the protocol
// whose reference server its scenarios play against.
type Folder struct {
	Name     string // features/<Name>/agents.feature
	Protocol string // the registered protocol serving it
}

// Folders lists every folder with rules for agents, in the order the
// scenarios run.
var Folders = []Folder{
	{"iyra", "iyra"},
	{"forge", "forge"},
	{"phantom-press", "phantom-press"},
	{"bounty", "bounty"},
	{"share-exchange", "share-exchange"},
	{"pyyol", "pyyol-gateway"},
}

// Script is one scripted agent behaviour: what it plays, and the
// documented faults (by name) its server injects on every request they
// apply to, so the agent meets them at once.
type Script struct {
	Faults []string
	// Settle is how long a finding may come after the play ends (a
	// socket's audit reports some when a grace period lapses); the audit
	// is read until then. Zero waits findingGrace.
	Settle time.Duration
	Play   func(ctx context.Context, base string) error // base: the origin and the protocol's base path
}

// Server is one protocol's reference server behind the audit, on loopback.
type Server struct {
	Origin string // scheme and host
	Base   string // Origin and the protocol's base path
	Audit  *audit.Auditor
	close  func()
}

// Close stops the server.
func (s *Server) Close() { s.close() }

// Options tune a server; the zero value is serve --audit's.
type Options struct {
	// Watcher replaces the protocol's registered watcher (a test of the
	// scenarios themselves uses a blind one).
	Watcher func() audit.Watcher
	// BlindFrames drops what a server audits inside a socket (Pyyol's
	// gateway checks frames itself, beside its HTTP watcher).
	BlindFrames bool
	// Faults are the documented faults injected on every request they
	// apply to.
	Faults []faults.Fault
	// Seed seeds the reference server and the fault draws.
	Seed uint64
	// MaxWait, when set, caps how long a scenario reads the audit for a
	// finding (else the script's Settle): a test with a blind watcher,
	// where no finding ever comes, need not wait out a reconnect grace.
	MaxWait time.Duration
	// Clocks shortens the waits of the servers that have them (Pyyol's
	// gateway); zero keeps serve --audit's. Run sets ScenarioClocks, which
	// the scripted agents are written against.
	Clocks Clocks
}

// Start serves protocol name's reference server wrapped in the audit.
func Start(name string, o Options) (*Server, error) {
	p, ok := protocols.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("agentaudit: no protocol %q", name)
	}
	watcher := o.Watcher
	if watcher == nil {
		watcher = Watchers[name]
	}
	if watcher == nil {
		return nil, fmt.Errorf("agentaudit: protocol %q has no audit watcher", name)
	}
	a := audit.New(nil)
	if o.BlindFrames {
		a.BlindFrames()
	}
	h := reference(name, p.Reference, suite.ReferenceConfig{Seed: suite.ReferenceSeed(o.Seed)}, o.Clocks)
	h = faults.Wrap(h, o.Faults, faults.Options{Rate: 1, Seed: o.Seed, Base: p.BasePath})
	h = a.Wrap(h, name, p.BasePath, watcher())
	mux := http.NewServeMux()
	mux.Handle(p.BasePath, h)
	if p.BasePath != "/" {
		mux.Handle(p.BasePath+"/", h)
	}
	srv := httptest.NewServer(mux)
	base := srv.URL
	if p.BasePath != "/" {
		base += p.BasePath
	}
	return &Server{Origin: srv.URL, Base: base, Audit: a, close: srv.Close}, nil
}

// pick returns the faults of table named in names.
func pick(table []faults.Fault, names []string) []faults.Fault {
	var out []faults.Fault
	for _, f := range table {
		if slices.Contains(names, f.Name) {
			out = append(out, f)
		}
	}
	return out
}

// FaultTables lists, per protocol, the documented faults its reference
// server can inject: the ones a script may ask for, and those of serve
// --faults, which uses the same list. A protocol missing here injects none.
var FaultTables = map[string]func() []faults.Fault{
	"iyra":           iyraserver.Faults,
	"phantom-press":  pp.Faults,
	"forge":          forgeserver.Faults,
	"bounty":         bountyserver.Faults,
	"share-exchange": sxserver.Faults,
	"pyyol-gateway":  pyyolserver.Faults,
}

// Findings returns every finding the audit recorded, across agents.
func (s *Server) Findings() []audit.Finding {
	var out []audit.Finding
	for _, ag := range s.Audit.Agents() {
		out = append(out, ag.Findings...)
	}
	return out
}

// Requests counts the requests the audit saw, across agents.
func (s *Server) Requests() int {
	n := 0
	for _, ag := range s.Audit.Agents() {
		for _, c := range ag.Requests {
			n += c
		}
	}
	return n
}
