package cli

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"text/tabwriter"

	"github.com/agentgames/conformance/conformance/agentaudit"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/faults"
)

// faultsOf returns the documented faults protocol p can inject.
func faultsOf(p *suite.Protocol) []faults.Fault {
	if f, ok := agentaudit.FaultTables[p.Name]; ok {
		return f()
	}
	return nil
}

// printFaults answers serve --faults list: what each protocol can inject,
// with the rule each fault exercises.
func printFaults(w io.Writer, ps []*suite.Protocol) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, p := range ps {
		fs := faultsOf(p)
		if len(fs) == 0 {
			fmt.Fprintf(tw, "%s\t(no documented fault to inject)\n", p.Name)
			continue
		}
		for _, f := range fs {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Name, f.Rule, faultStatus(f), f.Name, f.Doc)
		}
	}
	tw.Flush()
	fmt.Fprintln(w, "\nserve --faults light|heavy|RATE injects them at that rate (light 0.05, heavy 0.3), reproducibly from --seed.")
}

// withFaults wraps a protocol's reference server with its documented
// faults at rate (0: none), each injection logged with its rule.
func withFaults(h http.Handler, p *suite.Protocol, rate float64, seed uint64, logger *log.Logger) http.Handler {
	return faults.Wrap(h, faultsOf(p), faults.Options{Rate: rate, Seed: seed, Base: p.BasePath, Log: logger})
}
