package runbench_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/benchpair"
	"github.com/agentgames/conformance/conformance/cli"
	"github.com/agentgames/conformance/conformance/protocols"
)

// BenchmarkLiveSuiteVsEmbedded compares the full live suite of every
// protocol against one in-process serve (`conformance run --target URL
// --protocol <all>` with serve's documented development flags) with the
// embedded run (`conformance run`), both through cli.Main, interleaved by
// benchpair: "live-wall" is the live run's wall time over the embedded
// run's (goal: at most 1.2). Each unit serves a fresh world of the same
// seed. Both sides must pass, with the same verdict counts every time.
//
// The serve side keeps the reference's documented waits: Pyyol's gateway
// waits 2 s for an unanswered turn (PYYOL-REF-TURN-TIMEOUT) where the
// embedded gateway waits 0.5 s, and four gateway scenarios leave a turn
// unanswered on purpose.
func BenchmarkLiveSuiteVsEmbedded(b *testing.B) {
	all := protocols.All()
	var names []string
	for _, p := range all {
		names = append(names, p.Name)
	}
	srv := startServe(b)
	dir := b.TempDir()
	liveArgs := []string{"run", "--target", srv.url, "--protocol", strings.Join(names, ","),
		"--admin-token", "pt_admin_dev", "--secret", "dev-secret"}
	live := cliRun(b, dir, "live", liveArgs, func() { srv.fresh(all, benchSeed) })
	embedded := cliRun(b, dir, "embedded", []string{"run"}, func() {})
	benchpair.Report(b, "live", live, embedded)
}

// cliRun returns a side running `conformance <args>` n times (quiet, the
// bench seed, a JSON report), each after prepare, failing the benchmark
// on a run that does not pass or whose counts differ from the first.
func cliRun(b *testing.B, dir, name string, args []string, prepare func()) benchpair.Side {
	report := filepath.Join(dir, name+".json")
	args = append(args, "--quiet", "--seed", fmt.Sprint(benchSeed), "--json", report, "--cases", filepath.Join(dir, name+"-cases"))
	want := ""
	return func(n int) {
		for range n {
			prepare()
			var out bytes.Buffer
			if code := cli.Main(args, &out, &out); code != cli.ExitPass {
				b.Fatalf("%s run exited %d:\n%s", name, code, lastLines(out.String(), 30))
			}
			got := reportTotals(b, report)
			if want == "" {
				want = got
			}
			if got != want {
				b.Fatalf("%s run: verdicts changed between runs: %s, first %s", name, got, want)
			}
		}
	}
}

// reportTotals reads a JSON report's totals.
func reportTotals(b *testing.B, path string) string {
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var rep struct {
		Totals map[string]int `json:"totals"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		b.Fatal(err)
	}
	out, _ := json.Marshal(rep.Totals)
	return string(out)
}

// lastLines is the end of a run's output, for a failure message.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
