package verdict

import (
	"fmt"
	"slices"
	"sort"
)

// Merge folds the reports of the shards of one run (--shard i/n) into the
// report the unsharded run would have made: the results of every shard in
// shard order, each protocol once with its catalogue, and every harness
// error, wrong-target finding and stale baseline entry (each once). It
// refuses reports of different tools and any set that is not every shard
// of one run exactly once (checkShards).
func Merge(reps ...*Report) (*Report, error) {
	names := make([]string, len(reps))
	for i := range reps {
		names[i] = fmt.Sprintf("report %d", i+1)
	}
	return MergeNamed(names, reps)
}

// MergeNamed is Merge with a name for each report (its file), which its
// refusals use.
func MergeNamed(names []string, reps []*Report) (*Report, error) {
	if len(reps) == 0 {
		return nil, fmt.Errorf("no reports to merge")
	}
	for i, r := range reps {
		if r.Tool != reps[0].Tool {
			return nil, fmt.Errorf("%s was written by %q, not %q", names[i], r.Tool, reps[0].Tool)
		}
	}
	if err := checkShards(names, reps); err != nil {
		return nil, err
	}
	out := &Report{Tool: reps[0].Tool, Started: reps[0].Started, Seed: reps[0].Seed, Embedded: reps[0].Embedded,
		Selection: reps[0].Selection}
	seen := map[string]int{}
	stale := map[string]BaselineEntry{}
	for _, r := range reps {
		if r.Started.Before(out.Started) {
			out.Started = r.Started
		}
		out.Duration = max(out.Duration, r.Duration)
		out.Embedded = out.Embedded && r.Embedded
		for _, p := range r.Protocols {
			if j, ok := seen[p.Name]; ok {
				out.Protocols[j] = mergeInfo(out.Protocols[j], p)
				continue
			}
			seen[p.Name] = len(out.Protocols)
			out.Protocols = append(out.Protocols, p)
		}
		out.Results = append(out.Results, r.Results...)
		out.Errors = appendNew(out.Errors, r.Errors...)
		out.NotProtocol = appendNew(out.NotProtocol, r.NotProtocol...)
		for _, e := range r.Stale {
			stale[e.Key()] = e
		}
	}
	out.Stale = staleEverywhere(out.Results, stale)
	return out, nil
}

// staleEverywhere keeps a stale entry only when no shard saw its failure:
// one shard may run a passing check of a baselined rule while another runs
// the check that still fails it.
func staleEverywhere(results []Result, stale map[string]BaselineEntry) []BaselineEntry {
	expected := map[string]bool{}
	for _, r := range results {
		if r.Baseline != nil {
			expected[r.Baseline.Key()] = true
		}
	}
	var out []BaselineEntry
	for key, e := range stale {
		if !expected[key] {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// mergeInfo keeps the catalogue that lists more rules, so a shard that
// reported a protocol without its catalogue loses nothing.
func mergeInfo(a, b ProtocolInfo) ProtocolInfo {
	if len(b.Rules) > len(a.Rules) {
		b.Target = firstNonEmpty(a.Target, b.Target)
		return b
	}
	a.Target = firstNonEmpty(a.Target, b.Target)
	return a
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// appendNew appends the lines of add that list lacks: every shard reports
// the same run-level error (a selection that matches nothing, a wrong
// target), which the unsharded run reports once.
func appendNew(list []string, add ...string) []string {
	for _, a := range add {
		if !slices.Contains(list, a) {
			list = append(list, a)
		}
	}
	return list
}
