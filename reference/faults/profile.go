package faults

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Profiles name the usual rates: light for a smoke test of an agent's
// error paths, heavy for its recovery under pressure.
var Profiles = map[string]float64{
	"light": 0.05,
	"heavy": 0.3,
}

// ParseRate reads a --faults value: a profile name or a rate in (0, 1].
func ParseRate(v string) (float64, error) {
	if r, ok := Profiles[v]; ok {
		return r, nil
	}
	r, err := strconv.ParseFloat(v, 64)
	if err != nil || r <= 0 || r > 1 {
		return 0, fmt.Errorf("--faults takes list, a profile (%s) or a rate in (0, 1], not %q", strings.Join(profileNames(), ", "), v)
	}
	return r, nil
}

func profileNames() []string {
	var out []string
	for n := range Profiles {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
