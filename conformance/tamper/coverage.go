package tamper

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/agentgames/conformance/spec"
)

// Tables are a package's tables of broken targets, each registered where
// it is declared, so that a coverage test reads the very rows the tests
// run instead of a hand-kept list of rules.
type Tables map[string]func() []Case

// Add registers rows under name and returns them, for the test that runs
// them. Two tables of one name are a kit error.
func (t Tables) Add(name string, rows func() []Case) func() []Case {
	if _, dup := t[name]; dup {
		panic("two tamper tables named " + name)
	}
	t[name] = rows
	return rows
}

// Rules are the rules the registered tables' cases must fail.
func (t Tables) Rules() map[string]bool {
	out := map[string]bool{}
	for _, rows := range t {
		for _, c := range rows() {
			out[c.Rule] = true
		}
	}
	return out
}

// Uncovered lists what keeps a catalogue's tamper coverage from being
// whole: a platform MUST rule with neither a broken target (tampered) nor
// a reason in untampered; a case naming a rule the catalogue lacks; and a
// reason that is stale (the rule has a case), empty, or given for
// anything but a platform MUST rule. A rule for agents is audited by serve
// --audit, never tampered.
func Uncovered(cat *spec.Catalogue, tampered map[string]bool, untampered map[string]string) []string {
	var out []string
	platformMust := map[string]bool{}
	for _, r := range cat.Rules {
		platformMust[r.ID] = r.Level == spec.Must && !r.ForAgents()
		if _, reason := untampered[r.ID]; platformMust[r.ID] && !tampered[r.ID] && !reason {
			out = append(out, r.ID+": a MUST rule without a tamper test or a recorded reason")
		}
	}
	for id := range tampered {
		if _, ok := cat.Rule(id); !ok {
			out = append(out, id+": a tamper case names it, but the catalogue lacks it")
		}
	}
	for id, why := range untampered {
		switch {
		case tampered[id]:
			out = append(out, fmt.Sprintf("%s: has a tamper test and a reason for lacking one (%s)", id, why))
		case !platformMust[id]:
			out = append(out, id+": untampered names it, but it is not a platform MUST rule of the catalogue")
		case why == "":
			out = append(out, id+": untampered gives no reason")
		}
	}
	sort.Strings(out)
	return out
}

// Covers fails tb for every gap Uncovered finds between the catalogue
// folder's rules and the tables' cases, and logs the coverage: the one
// body of every package's TestEveryLiveMustRuleHasATamperTest.
func (t Tables) Covers(tb testing.TB, folder string, untampered map[string]string) {
	tb.Helper()
	cat, err := spec.Load(folder)
	if err != nil {
		tb.Fatal(err)
	}
	tampered := t.Rules()
	for _, gap := range Uncovered(cat, tampered, untampered) {
		tb.Error(gap)
	}
	Record(tb, folder, tampered, untampered)
	tb.Logf("%d rules tampered, %d MUST rules without a broken target", len(tampered), len(untampered))
}

// recordEnv, set to 1, makes Record rewrite the recorded coverage instead
// of comparing it.
const recordEnv = "CONFORMANCE_RECORD_TAMPER"

// Record keeps spec/<folder>/tamper.json equal to a package's tamper
// tables: tampered are the rules its cases fail, untampered the platform
// MUST rules without one and why. `conformance rules --untampered` reads
// that file, since the binary does not carry the tests' tables; Record
// fails tb when the file differs, or rewrites it when CONFORMANCE_RECORD_TAMPER=1.
func Record(tb testing.TB, folder string, tampered map[string]bool, untampered map[string]string) {
	tb.Helper()
	want := spec.NewTampering(tampered, untampered).Encode()
	path, err := tamperPath(folder)
	if err != nil {
		tb.Fatal(err)
	}
	if os.Getenv(recordEnv) == "1" {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		tb.Errorf("%s is not the tamper tables' coverage (%v): run the test with %s=1 to record it", path, err, recordEnv)
	}
}

// tamperPath finds spec/<folder>/tamper.json from the test's directory: the
// module root is the nearest parent holding go.mod.
func tamperPath(folder string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "spec", folder, spec.TamperFile), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("tamper: no go.mod above the test's directory")
		}
		dir = parent
	}
}
