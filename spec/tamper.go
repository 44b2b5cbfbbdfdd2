package spec

import (
	"embed"
	"encoding/json"
	"fmt"
	"sort"
)

// tamperFiles are the recorded tamper coverage of every catalogue
// (<folder>/tamper.json).
//
//go:embed */tamper.json
var tamperFiles embed.FS

// TamperFile is the name of a catalogue folder's recorded tamper coverage.
const TamperFile = "tamper.json"

// Tampering is a catalogue's recorded tamper coverage: the platform MUST
// rules a broken target of the tests fails, and those without one with
// why. The tamper tables live in tests, which a binary does not carry, so
// each protocol's coverage test keeps this record equal to its tables
// (conformance/tamper.Record) and `conformance rules --untampered` reads
// it.
type Tampering struct {
	Note string `json:"note"`
	// Tampered are the rules some tamper case fails, sorted.
	Tampered []string `json:"tampered"`
	// Untampered are the platform MUST rules without a tamper case, each
	// with the reason.
	Untampered map[string]string `json:"untampered"`
}

// LoadTampering reads the recorded tamper coverage of a catalogue folder.
func LoadTampering(folder string) (*Tampering, error) {
	raw, err := tamperFiles.ReadFile(folder + "/" + TamperFile)
	if err != nil {
		return nil, fmt.Errorf("spec: no recorded tamper coverage for %q", folder)
	}
	var t Tampering
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("spec: %s/%s: %w", folder, TamperFile, err)
	}
	if t.Untampered == nil {
		t.Untampered = map[string]string{}
	}
	return &t, nil
}

// Tampers reports whether the record holds a tamper case failing id.
func (t *Tampering) Tampers(id string) bool {
	i := sort.SearchStrings(t.Tampered, id)
	return i < len(t.Tampered) && t.Tampered[i] == id
}

// NewTampering builds the record of tampered rules and reasons, sorted,
// for the coverage tests to compare and write.
func NewTampering(tampered map[string]bool, untampered map[string]string) *Tampering {
	t := &Tampering{
		Note: "Recorded by the tamper coverage tests (TestEveryLiveMustRuleHasATamperTest and its kin) from the tamper tables they run; " +
			"they fail when this file differs from the tables, and rewrite it when run with CONFORMANCE_RECORD_TAMPER=1. " +
			"`conformance rules --untampered` lists the platform MUST rules this file does not show tampered.",
		Tampered: []string{}, Untampered: map[string]string{},
	}
	for id, ok := range tampered {
		if ok {
			t.Tampered = append(t.Tampered, id)
		}
	}
	sort.Strings(t.Tampered)
	for id, why := range untampered {
		t.Untampered[id] = why
	}
	return t
}

// Encode is the record as written to disk: indented JSON with a final
// newline, so a rewrite of an unchanged record changes no byte.
func (t *Tampering) Encode() []byte {
	out, _ := json.MarshalIndent(t, "", "  ")
	return append(out, '\n')
}
