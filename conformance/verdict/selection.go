package verdict

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Selection is what a run was asked to check: the flags that decide which
// checks run and how (protocols, --tags, --rule, --seed, --checks) and the
// kit's version. Every report records it, so that `conformance merge` can
// refuse shards that are not parts of one run.
type Selection struct {
	Protocols []string `json:"protocols"`
	Tags      string   `json:"tags,omitempty"`
	Rules     []string `json:"rules,omitempty"`
	Seed      uint64   `json:"seed"`
	Checks    int      `json:"checks"`
	// Flags are the protocols' own flags given to the run (--allow-authoring,
	// --frame-wait, ...), credentials left out: they never reach a report.
	Flags   map[string]string `json:"flags,omitempty"`
	Version string            `json:"kit_version"`
}

// differs names the first field in which s and o differ, with both values
// ("--seed 8, not 7"), or "" when they are the same selection.
func (s Selection) differs(o Selection) string {
	show := func(v []string) string {
		if len(v) == 0 {
			return "(none)"
		}
		return strings.Join(v, ",")
	}
	switch {
	case s.Seed != o.Seed:
		return fmt.Sprintf("--seed %d, not %d", o.Seed, s.Seed)
	case s.Version != o.Version:
		return fmt.Sprintf("kit version %s, not %s", o.Version, s.Version)
	case !slices.Equal(s.Protocols, o.Protocols):
		return fmt.Sprintf("--protocol %s, not %s", show(o.Protocols), show(s.Protocols))
	case s.Tags != o.Tags:
		return fmt.Sprintf("--tags %q, not %q", o.Tags, s.Tags)
	case !slices.Equal(s.Rules, o.Rules):
		return fmt.Sprintf("--rule %s, not %s", show(o.Rules), show(s.Rules))
	case s.Checks != o.Checks:
		return fmt.Sprintf("--checks %d, not %d", o.Checks, s.Checks)
	case !maps.Equal(s.Flags, o.Flags):
		return fmt.Sprintf("protocol flags %s, not %s", showFlags(o.Flags), showFlags(s.Flags))
	}
	return ""
}

// checkShards refuses a set of reports that is not every shard of one run
// exactly once: a report without a recorded selection, reports of another
// selection, seed or kit version, shards of different counts, a shard
// given twice or one missing. A single unsharded report is a complete set.
// names says what to call each report (its file).
func checkShards(names []string, reps []*Report) error {
	first := reps[0]
	for i, r := range reps {
		if r.Selection == nil {
			return fmt.Errorf("%s records no selection (written by an older kit?): re-run the shards with this one", names[i])
		}
		if d := first.Selection.differs(*r.Selection); d != "" {
			return fmt.Errorf("%s is not a shard of the same run as %s: %s", names[i], names[0], d)
		}
	}
	count, err := shardCount(names, reps)
	if err != nil {
		return err
	}
	seen := map[int]string{}
	for i, r := range reps {
		idx, _, _ := parseShard(r.Shard)
		if prev, ok := seen[idx]; ok {
			return fmt.Errorf("shard %d/%d is given twice (%s and %s)", idx, count, prev, names[i])
		}
		seen[idx] = names[i]
	}
	var missing []string
	for i := 1; i <= count; i++ {
		if _, ok := seen[i]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", i, count))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("shard %s of the run is missing: merge needs every shard once", strings.Join(missing, ", "))
	}
	return nil
}

// shardCount is the n every report's shard i/n agrees on (1 for one
// unsharded report).
func shardCount(names []string, reps []*Report) (int, error) {
	count := 0
	for i, r := range reps {
		n := 1
		if r.Shard != "" {
			var ok bool
			if _, n, ok = parseShard(r.Shard); !ok {
				return 0, fmt.Errorf("%s: shard %q is not i/n", names[i], r.Shard)
			}
		}
		if count == 0 {
			count = n
		}
		if n != count {
			return 0, fmt.Errorf("%s is shard %s, but %s is of %d shards", names[i], shardName(r.Shard), names[0], count)
		}
	}
	return count, nil
}

// parseShard reads a report's "i/n"; "" is the whole run, 1/1.
func parseShard(s string) (index, count int, ok bool) {
	if s == "" {
		return 1, 1, true
	}
	i, n, found := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(i)
	count, err2 := strconv.Atoi(n)
	return index, count, found && err1 == nil && err2 == nil && index >= 1 && index <= count
}

func shardName(s string) string {
	if s == "" {
		return "the whole run (unsharded)"
	}
	return s
}

// showFlags is "--a=1 --b=2" in name order, or "(none)".
func showFlags(f map[string]string) string {
	if len(f) == 0 {
		return "(none)"
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(f)) {
		out = append(out, "--"+k+"="+f[k])
	}
	return strings.Join(out, " ")
}
