package cli

import (
	"github.com/agentgames/conformance/conformance/baseline"
	"github.com/agentgames/conformance/conformance/protocols"
)

// loadBaseline reads a --baseline file and checks every entry against the
// registered protocols (all of them: an entry for a protocol this run does
// not select is valid, its checks just do not run), so a misspelt rule,
// protocol or check is a usage error naming the nearest known name instead
// of an entry that silently never matches.
func loadBaseline(path string) (*baseline.File, error) {
	f, err := baseline.Load(path)
	if err != nil {
		return nil, err
	}
	known, err := knownNames()
	if err != nil {
		return nil, err
	}
	if err := f.Check(known); err != nil {
		return nil, err
	}
	return f, nil
}

// knownNames lists every rule ID and check name of the registered protocols.
func knownNames() (baseline.Known, error) {
	k := baseline.Known{Checks: map[string][]string{}}
	for _, p := range protocols.All() {
		cat, err := p.LoadCatalogue()
		if err != nil {
			return k, err
		}
		for _, r := range cat.Rules {
			k.Rules = append(k.Rules, r.ID)
		}
		if k.Checks[p.Name], err = p.CheckNames(); err != nil {
			return k, err
		}
	}
	return k, nil
}
