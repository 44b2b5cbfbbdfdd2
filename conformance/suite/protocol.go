// Package suite runs a protocol's features and property tests against a
// target and folds the outcomes into verdict results. A protocol plugs in by
// describing itself with a Protocol value: its reference server, its step
// definitions, its rapid state machines and its vector calculator.
package suite

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"sync"
	"time"

	"pgregory.net/rapid"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/features"
	"github.com/agentgames/conformance/fixtures"
	"github.com/agentgames/conformance/reference/skeleton"
	"github.com/agentgames/conformance/spec"
	"github.com/agentgames/conformance/vectors"
)

// Protocol describes one protocol to the runner and to `conformance serve`.
type Protocol struct {
	// Name is the --protocol value, e.g. "phantom-press".
	Name  string
	Title string
	// Folder names the protocol's data folders: spec/<Folder>/,
	// features/<Folder>/, fixtures/<Folder>/ and vectors/<Folder>/, e.g.
	// "phantom-press". Empty means Name.
	Folder string
	// Package names its Go folders: reference/<Package>/ (the engine and the
	// server, whose code cites every rule) and conformance/<Package>/ (the
	// steps), e.g. "phantompress".
	Package string
	// RulePrefix starts every rule ID of the catalogue, e.g. "PP" for
	// PP-LAW-OFFICIAL.
	RulePrefix string
	// BasePath is the documented mount point, e.g. "/api/v5". A --target URL
	// with no path gets it appended; the reference handler serves paths that
	// begin with it.
	BasePath string
	// FeatureFiles, when set, is a glob of feature file names (e.g.
	// "push-*.feature") for a protocol that shares its data folder with
	// another: it runs only the features of the folder that match, and its
	// catalogue holds only the rules those features tag (share.go). Empty
	// means every feature and rule of the folder.
	FeatureFiles string
	// AgentRules, with FeatureFiles, gives the protocol its data folder's
	// rules for agents too, which no scenario tags: its reference server
	// audits them (serve --audit).
	AgentRules bool
	// EntryPath, when set, is the path under BasePath that a run's
	// --target names (pyyol-push: "/turn", the endpoint.url the other
	// routes are siblings of); serve's banner prints it.
	EntryPath string
	// WebSocketPaths are the paths under BasePath that the reference serves
	// over WebSocket; `conformance serve` prints a ws:// line for each.
	WebSocketPaths []string
	// Flags are the protocol's own `conformance run` flags (credentials a
	// live target needs, such as Pyyol's --secret); the run hands their
	// values to the steps in Env.Settings.
	Flags []Flag
	// ServeFlags are the extra flags of Flags that a live run against the
	// reference as `conformance serve` serves it needs beyond --target and
	// --protocol: the reference's documented development credentials (the
	// Pyyol push agent's dev secret). serve prints them on a `flags NAME
	// ...` line; the contract test's live run uses them.
	ServeFlags []string
	// Preflight is the path, relative to the base URL, of a documented read
	// that any deployment answers with a JSON 200 and no credentials; the
	// runner asks it once before checking a live target. "/" asks the base
	// URL itself; "" asks nothing.
	Preflight string
	// PreflightReachOnly makes the preflight a reachability probe of the
	// Preflight path, for a protocol whose contract documents no such read:
	// any HTTP answer means the target is up; only a target that does not
	// answer at all stops the run (one harness error, as for the others).
	PreflightReachOnly bool
	// PreflightBase maps the run's base URL to the one Preflight is
	// relative to, for a protocol whose --target may name an endpoint
	// rather than its base (Pyyol's endpoint.url, a ws:// socket URL); nil
	// keeps the base URL.
	PreflightBase func(base string) string
	// PreflightFallback, when set, is asked when the preflight read answers
	// a status other than 200, for a protocol whose documented read is an
	// optional part of a deployment (Pyyol's stakes menu beside its
	// socket): ok means another documented surface shows the protocol, and
	// the target is checked; otherwise found says what that surface
	// answered, for the WRONG TARGET line. A 200 that is not a JSON object
	// contradicts the protocol and never reaches it.
	PreflightFallback func(ctx context.Context, env *Env) (found string, ok bool)
	// Reference builds a fresh reference server.
	Reference func(cfg ReferenceConfig) http.Handler
	// Steps registers the step definitions of one scenario on sc, the
	// scenario's step table (ScenarioContext). The world it builds for the
	// scenario embeds Scenario, bound to sc (archtest holds every
	// registered protocol to it).
	Steps func(sc *ScenarioContext, env *Env)
	// Properties are the rapid state machines run after the features.
	Properties []Property
	// Catalogue, Features and OpenAPI override the embedded spec/ and
	// features/ files; nil means embedded. The kit's own tests use them to
	// run toy protocols through the real runner.
	Catalogue *spec.Catalogue
	Features  fs.FS
	OpenAPI   []byte
	// Source, VectorFiles and ReferenceCode override the verbatim contract in
	// fixtures/ (named by the catalogue's source), the vectors in
	// vectors/<Folder>/ and the Go sources of reference/<Package>/, for toy
	// protocols in the kit's own tests.
	Source        []byte
	VectorFiles   []vectors.File
	ReferenceCode fs.FS
	// SchemaFiles overrides spec/<Folder>/ as the place of the protocol's
	// JSON Schemas (every *.json but rules.json), which the contract test
	// compiles.
	SchemaFiles fs.FS
	// Vector recomputes the expected value of one known-answer vector of the
	// given kind from its input, with the reference code.
	Vector func(kind string, input json.RawMessage) (any, error)
	// Quota, when set, is what the protocol may spend of a live
	// deployment: the runner prints its plan before the first write
	// (liveplan.go) and Env.Quota hands out the same planner.
	Quota *QuotaPlan
	// Probe, when set, replaces the Preflight read for a protocol whose
	// contract documents no public read but fixes the shape of every
	// answer (share-exchange): one request that changes nothing, sent
	// before any check, tells the protocol's responder from anything else
	// (probe.go).
	Probe *Probe
}

// ReferenceConfig configures a reference server; it lives on the
// reference side (skeleton.Config) so that servers never import the runner.
type ReferenceConfig = skeleton.Config

// Env is what a protocol's steps and machines get for one scenario or one
// property check.
type Env struct {
	// HTTP is the target driver, recording into this scenario's transcript.
	HTTP *driver.HTTP
	// Catalogue is the protocol's rule catalogue.
	Catalogue *spec.Catalogue
	// Seed is the run's seed (--seed); use it for any random choice.
	Seed uint64
	// Shared is a cache that lives for the whole run, for state worth
	// reusing across scenarios (a verified identity, a registered agent).
	Shared *Shared
	// Reference is the in-process reference handler when the run targets the
	// embedded reference, nil against a live target. Scenarios that need
	// white-box control (a test clock) skip when it is nil.
	Reference http.Handler
	// Clock, when non-nil, is the embedded reference's adjustable clock.
	Clock *Clock
	// MaxWrites is the run's --max-writes (0: not set), for protocols that
	// plan their own spending against a live target.
	MaxWrites int
	// ExhaustQuotas is the run's --exhaust-quotas: scenarios tagged
	// @exhaust may spend a throwaway identity's whole daily allowance.
	ExhaustQuotas bool
	// Long is the run's --long: @long scenarios wait out documented
	// windows in real time (Config.Long).
	Long bool
	// Settings are the run's values of the protocol's own flags
	// (Protocol.Flags): read credentials and permissions here, never from
	// a package variable.
	Settings Settings
	// links hands out the other transports' drivers (env.go).
	links *links
}

// Live reports whether the target is a live deployment rather than the
// embedded reference: checks then spend a real quota and cannot use the
// reference's controls.
func (e *Env) Live() bool { return e.Reference == nil }

// Elsewhere reports a live target that is not on this machine: it cannot
// reach the runner's loopback listeners, and an address of this machine
// may name someone else's host on its network.
func (e *Env) Elsewhere() bool { return e.Live() && !skeleton.LoopbackURL(e.HTTP.BaseURL()) }

// Shared is a concurrency-safe run-wide cache.
type Shared struct {
	mu sync.Mutex
	m  map[string]any
}

// Once returns the value stored under key, computing it with make the first
// time. A failed computation is not cached.
func (s *Shared) Once(key string, make func() (any, error)) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.m[key]; ok {
		return v, nil
	}
	v, err := make()
	if err != nil {
		return nil, err
	}
	if s.m == nil {
		s.m = map[string]any{}
	}
	s.m[key] = v
	return v, nil
}

// Clock is the embedded reference's adjustable clock (skeleton.Clock).
type Clock = skeleton.Clock

// NewClock returns a clock reading t.
func NewClock(t time.Time) *Clock { return skeleton.NewClock(t) }

// Property is a rapid state machine that drives the target and the
// reference model side by side.
type Property struct {
	Name  string
	Rules []string
	// New starts one check: typically a fresh session on the target and a
	// fresh model.
	New func(ctx context.Context, env *Env) (Machine, error)
}

// Action is one step of a property test, as JSON so that a shrunk sequence
// can be written to a case file and replayed against any target.
type Action = json.RawMessage

// Machine is one running property check.
type Machine interface {
	// Draw picks the next action (legal or illegal) from the current state.
	Draw(t *rapid.T) Action
	// Apply performs a on the target and the model and compares them,
	// returning a *verdict.Failure on any divergence.
	Apply(ctx context.Context, a Action) error
}

// DataFolder is the folder of the protocol's spec, features, fixtures and
// vectors.
func (p *Protocol) DataFolder() string {
	if p.Folder != "" {
		return p.Folder
	}
	return p.Name
}

// LoadCatalogue returns the protocol's rule catalogue, checked: the rules
// of its own features when it shares its folder (FeatureFiles).
func (p *Protocol) LoadCatalogue() (*spec.Catalogue, error) { return p.catalogue() }

// FeatureFS returns the file system holding <DataFolder>/*.feature: only
// the protocol's own files when it shares its folder (FeatureFiles).
func (p *Protocol) FeatureFS() fs.FS { return p.featureFS() }

// CheckNames returns the names the protocol's checks report under (a
// result's Name): its scenarios' and its properties', which a --baseline
// entry may name.
func (p *Protocol) CheckNames() ([]string, error) {
	scenarios, err := p.scenarios()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range scenarios {
		out = append(out, s.Name)
	}
	for _, prop := range p.Properties {
		out = append(out, prop.Name)
	}
	return out, nil
}

// FolderCatalogue returns the whole catalogue of the data folder, which
// every protocol sharing the folder draws its rules from.
func (p *Protocol) FolderCatalogue() (*spec.Catalogue, error) { return p.folderCatalogue() }

// FolderFeatureFS returns the file system holding every feature of the
// data folder, whichever protocol sharing it runs them.
func (p *Protocol) FolderFeatureFS() fs.FS { return p.folderFeatureFS() }

// OpenAPIDocument returns the protocol's OpenAPI document.
func (p *Protocol) OpenAPIDocument() ([]byte, error) { return p.openAPI() }

// SourceContract returns the verbatim source contract the catalogue quotes.
func (p *Protocol) SourceContract(cat *spec.Catalogue) ([]byte, error) {
	if p.Source != nil {
		return p.Source, nil
	}
	return fixtures.ReadFile(cat.Source)
}

// Vectors returns the protocol's known-answer vectors.
func (p *Protocol) Vectors() ([]vectors.File, error) {
	if p.VectorFiles != nil {
		return p.VectorFiles, nil
	}
	return vectors.Load(p.DataFolder())
}

// folderCatalogue returns the data folder's rule catalogue.
func (p *Protocol) folderCatalogue() (*spec.Catalogue, error) {
	if p.Catalogue != nil {
		return p.Catalogue, p.Catalogue.Check()
	}
	return spec.Load(p.DataFolder())
}

// folderFeatureFS returns the file system holding <DataFolder>/*.feature.
func (p *Protocol) folderFeatureFS() fs.FS {
	if p.Features != nil {
		return p.Features
	}
	return features.FS()
}

// openAPI returns the protocol's OpenAPI document.
func (p *Protocol) openAPI() ([]byte, error) {
	if p.OpenAPI != nil {
		return p.OpenAPI, nil
	}
	return spec.OpenAPI(p.DataFolder())
}
