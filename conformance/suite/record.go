package suite

import (
	"runtime/debug"
	"sync"

	"github.com/agentgames/conformance/conformance/verdict"
)

// recordSelection is what a run's report records of what it was asked to
// check (verdict.Selection), so that `conformance merge` can tell the
// shards of one run from anything else. Checks is the effective number (0
// is DefaultChecks; no property tests is -1).
func recordSelection(cfg Config) *verdict.Selection {
	s := &verdict.Selection{Tags: cfg.Tags, Rules: cfg.Rules, Seed: cfg.Seed, Checks: cfg.Checks, Version: KitVersion()}
	switch {
	case cfg.Checks < 0 || cfg.NoProperties:
		s.Checks = -1
	case cfg.Checks == 0:
		s.Checks = DefaultChecks
	}
	for _, p := range cfg.Protocols {
		s.Protocols = append(s.Protocols, p.Name)
		for _, f := range p.Flags {
			if v, ok := cfg.Settings[f.Name]; ok && !f.Secret {
				if s.Flags == nil {
					s.Flags = map[string]string{}
				}
				s.Flags[f.Name] = v
			}
		}
	}
	return s
}

// KitVersion names the build of the kit that made a report: the module's
// version and, when the build recorded it, its VCS revision (with
// "+dirty" for uncommitted changes). Two binaries built from different
// commits give different versions, so their shards never merge; a build
// without VCS information (go run, go test) is "devel" and its go version.
var KitVersion = sync.OnceValue(func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return v + " " + info.GoVersion
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return v + " " + rev
})
