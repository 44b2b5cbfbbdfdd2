package suite

import (
	"io/fs"

	"github.com/agentgames/conformance/conformance/memo"
	"github.com/agentgames/conformance/conformance/oas"
	"github.com/agentgames/conformance/features"
	"github.com/agentgames/conformance/spec"
)

// The kit's own spec/ and features/ files are embedded in the binary and
// never change, yet every run read and parsed its protocol's catalogue and
// feature files again: a fifth of the CPU of a test package that starts a
// hundred short runs. A protocol that reads them from there (no Catalogue
// or Features override) reads them once per process; one that brings its
// own (the kit's toy protocols) reads them every run, as before.

// embeddedKey names what a protocol reads from the embedded files.
type embeddedKey struct {
	folder, featureFiles string
	agentRules           bool
}

// parsed is a remembered answer with its error.
type parsed[T any] struct {
	v   T
	err error
}

var (
	embeddedCatalogues memo.Cache[embeddedKey, parsed[*spec.Catalogue]]
	embeddedScenarios  memo.Cache[embeddedKey, parsed[[]features.Scenario]]
	embeddedFeatureFS  memo.Cache[embeddedKey, fs.FS]
)

// readsEmbedded reports whether p's catalogue and features are the kit's
// embedded ones.
func (p *Protocol) readsEmbedded() bool { return p.Catalogue == nil && p.Features == nil }

func (p *Protocol) embeddedKey() embeddedKey {
	return embeddedKey{folder: p.DataFolder(), featureFiles: p.FeatureFiles, agentRules: p.AgentRules}
}

// catalogue returns the protocol's rule catalogue (readCatalogue), read once
// per process from the embedded files. Each caller gets its own copy of the
// Catalogue value; the rules themselves are shared and never changed.
func (p *Protocol) catalogue() (*spec.Catalogue, error) {
	if !p.readsEmbedded() {
		return p.readCatalogue()
	}
	got := embeddedCatalogues.Do(p.embeddedKey(), func(embeddedKey) parsed[*spec.Catalogue] {
		cat, err := p.readCatalogue()
		return parsed[*spec.Catalogue]{cat, err}
	})
	if got.v == nil {
		return nil, got.err
	}
	c := *got.v
	return &c, got.err
}

// scenarios returns the protocol's parsed scenarios, parsed once per
// process from the embedded files. The slice is shared: read it only.
func (p *Protocol) scenarios() ([]features.Scenario, error) {
	if !p.readsEmbedded() {
		return features.ParseFS(p.featureFS(), p.DataFolder())
	}
	got := embeddedScenarios.Do(p.embeddedKey(), func(embeddedKey) parsed[[]features.Scenario] {
		s, err := features.ParseFS(p.featureFS(), p.DataFolder())
		return parsed[[]features.Scenario]{s, err}
	})
	return got.v, got.err
}

// validatorKey is an OpenAPI document, the path it is served under and
// the rule a mismatch breaks by default.
type validatorKey struct{ doc, base, rule string }

// validators remembers loaded documents: a validator is read-only once
// loaded, and parsing a protocol's document was a twentieth of the CPU of
// a test package that starts a run per tamper case.
var validators memo.Cache[validatorKey, parsed[*oas.Validator]]

// loadValidator is oas.Load, once per process for each document, base and
// rule.
func loadValidator(doc []byte, base, rule string) (*oas.Validator, error) {
	got := validators.Do(validatorKey{string(doc), base, rule}, func(k validatorKey) parsed[*oas.Validator] {
		v, err := oas.Load([]byte(k.doc), k.base, k.rule)
		return parsed[*oas.Validator]{v, err}
	})
	return got.v, got.err
}
