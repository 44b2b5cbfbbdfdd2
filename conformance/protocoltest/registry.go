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
// has its spec, features and fixtures. Names and base paths are unique;
// protocols may share a data folder (with its Go package and rule prefix),
// but two folders never share a package or a prefix.
func CheckRegistry(ps []*suite.Protocol) error {
	var errs []error
	folders := map[string]bool{}
	for _, field := range []func(*suite.Protocol) string{
		func(p *suite.Protocol) string { return p.Name },
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
	for _, field := range []func(*suite.Protocol) string{
		func(p *suite.Protocol) string { return p.Package },
		func(p *suite.Protocol) string { return p.RulePrefix },
	} {
		folderOf := map[string]string{}
		for _, p := range ps {
			v := field(p)
			if f, ok := folderOf[v]; ok && f != p.DataFolder() {
				errs = append(errs, fmt.Errorf("folders %s and %s share %q", f, p.DataFolder(), v))
			}
			folderOf[v] = p.DataFolder()
		}
	}
	errs = append(errs, checkFlagNames(ps))
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

// checkFlagNames requires the protocols' own run flags to have distinct,
// non-empty names: the CLI binds them all on one flag set.
func checkFlagNames(ps []*suite.Protocol) error {
	var errs []error
	owner := map[string]string{}
	for _, p := range ps {
		for _, f := range p.Flags {
			if f.Name == "" || f.Usage == "" {
				errs = append(errs, fmt.Errorf("protocol %s has a flag without a name or usage: %+v", p.Name, f))
			}
			if o, ok := owner[f.Name]; ok {
				errs = append(errs, fmt.Errorf("protocols %s and %s both bind --%s", o, p.Name, f.Name))
			}
			owner[f.Name] = p.Name
		}
	}
	return errors.Join(errs...)
}
