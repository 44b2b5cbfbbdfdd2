package protocoltest

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/features"
	"github.com/agentgames/conformance/fixtures"
	"github.com/agentgames/conformance/spec"
	"github.com/agentgames/conformance/vectors"
)

// CheckRegistry requires the registered protocols and the data folders to
// match: every folder of spec/, features/ and fixtures/ (and vectors/, which
// a protocol may lack) belongs to a registered protocol and every protocol
// has its spec, features and fixtures; names, folders, packages, prefixes
// and base paths are unique.
func CheckRegistry(ps []*suite.Protocol) error {
	var errs []error
	folders := map[string]bool{}
	for _, field := range []func(*suite.Protocol) string{
		func(p *suite.Protocol) string { return p.Name },
		(*suite.Protocol).DataFolder,
		func(p *suite.Protocol) string { return p.Package },
		func(p *suite.Protocol) string { return p.RulePrefix },
		func(p *suite.Protocol) string { return p.BasePath },
	} {
		seen := map[string]bool{}
		for _, p := range ps {
			if v := field(p); seen[v] {
				errs = append(errs, fmt.Errorf("two protocols share %q", v))
			} else {
				seen[v] = true
			}
		}
	}
	for _, p := range ps {
		folders[p.DataFolder()] = true
	}
	dirs := map[string][]string{"spec": spec.Protocols(), "features": subdirs(features.FS()),
		"fixtures": subdirs(fixtures.FS()), "vectors": vectors.Protocols()}
	for _, area := range []string{"spec", "features", "fixtures", "vectors"} {
		for _, d := range dirs[area] {
			if !folders[d] {
				errs = append(errs, fmt.Errorf("%s/%s belongs to no registered protocol (add it to conformance/protocols)", area, d))
			}
		}
	}
	for _, f := range sortedFolders(folders) {
		for _, area := range []string{"spec", "features", "fixtures"} {
			if !slices.Contains(dirs[area], f) {
				errs = append(errs, fmt.Errorf("protocol folder %s has no %s/%s", f, area, f))
			}
		}
	}
	return errors.Join(errs...)
}

// subdirs lists the top-level folders of fsys.
func subdirs(fsys fs.FS) []string {
	entries, _ := fs.ReadDir(fsys, ".")
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

func sortedFolders(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
