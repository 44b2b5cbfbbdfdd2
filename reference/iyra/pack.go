// Package iyra is the pure reference engine of Echoes of Iyra: state,
// actions, site effects, trust gates, claims, endings, score, the public
// projection and the replay log with its hash chain. It performs no I/O and
// imports no networking, so the runner can run it in lockstep with a target
// as the oracle of the property tests.
package iyra

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/agentgames/conformance/fixtures"
)

// Site is one of the three city locations.
type Site string

// The sites of the contract's world.locations.
const (
	Archive Site = "archive"
	Harbor  Site = "harbor"
	Spire   Site = "spire"
)

// Sites lists the sites in the contract's order.
var Sites = []Site{Archive, Harbor, Spire}

// Faction is a group the investigator can ally with.
type Faction string

// The factions of the contract's world.factions.
const (
	Keepers  Faction = "keepers"
	Drifters Faction = "drifters"
)

// Factions lists the factions in a fixed order.
var Factions = []Faction{Keepers, Drifters}

// Claim is one of the hypotheses of investigation.claims.
type Claim string

// The two hypotheses.
const (
	RelayFault     Claim = "relay_fault"
	RecordOmission Claim = "record_omission"
)

// Claims lists the claims in a fixed order.
var Claims = []Claim{RelayFault, RecordOmission}

// Variant is one challenge variant (IYRA-VARIANTS): its ID names it in
// sessions and replays, and it fixes the public facts each site reveals, the
// structured record facts the claims' predictions are compared with, and
// the private texts that must never be projected into public state.
type Variant struct {
	ID               string `json:"id"`
	Name             string `json:"name"`
	ArchiveTestimony string `json:"archive_testimony"`
	HarborTestimony  string `json:"harbor_testimony"`
	SpireFact        string `json:"spire_fact"`
	// IntakeReceipts is what the Archive record shows: were intake receipts
	// stamped for the missing index entries?
	IntakeReceipts bool `json:"intake_receipts"`
	// ChecksumsMatch is what the Spire record shows: do delivery and intake
	// checksums agree?
	ChecksumsMatch bool   `json:"checksums_match"`
	Corroborates   Claim  `json:"corroborates"`
	Truth          string `json:"truth"`
	FieldNotes     string `json:"field_notes"`
}

// Supports reports whether the variant's Archive and Spire records match
// claim c's predictions (IYRA-VARIANT-CLAIM): record_omission predicts
// intake receipts for the missing entries plus matching checksums;
// relay_fault predicts absent receipts or a checksum mismatch.
func (v Variant) Supports(c Claim) bool {
	intact := v.IntakeReceipts && v.ChecksumsMatch
	switch c {
	case RecordOmission:
		return intact
	case RelayFault:
		return !intact
	}
	return false
}

// Pack is the content the engine plays: the variants and the
// author-declared epilogues keyed by ending or faction (each faction's in the
// contract's words of its consequence, IYRA-FACTION-WORDS).
type Pack struct {
	Variants  []Variant         `json:"variants"`
	Epilogues map[string]string `json:"epilogues"`
}

// Variant finds a variant by ID.
func (p *Pack) Variant(id string) (Variant, bool) {
	for _, v := range p.Variants {
		if v.ID == id {
			return v, true
		}
	}
	return Variant{}, false
}

// ParsePack decodes a pack and checks that each variant's declared claim is
// the one its facts support, so fixtures cannot drift from the rules.
func ParsePack(raw []byte) (*Pack, error) {
	var p Pack
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("iyra: pack: %w", err)
	}
	if len(p.Variants) == 0 {
		return nil, fmt.Errorf("iyra: pack has no variants")
	}
	for _, v := range p.Variants {
		if !v.Supports(v.Corroborates) {
			return nil, fmt.Errorf("iyra: variant %s declares %s but its facts do not support it", v.ID, v.Corroborates)
		}
	}
	return &p, nil
}

var (
	packOnce sync.Once
	pack     *Pack
	packErr  error
)

// DefaultPack returns the embedded fixtures/iyra/variants.json pack, parsed
// once. The fixtures are compiled in, so a failure is a build defect.
func DefaultPack() *Pack {
	packOnce.Do(func() {
		raw, err := fixtures.ReadFile("iyra/variants.json")
		if err != nil {
			packErr = err
			return
		}
		pack, packErr = ParsePack(raw)
	})
	if packErr != nil {
		panic(packErr)
	}
	return pack
}
