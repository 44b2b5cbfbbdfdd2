package iyra

import (
	"fmt"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// lastAction describes the last accepted action for failure messages.
func (w *world) lastAction() string {
	if w.Before == nil {
		return "setup"
	}
	return fmt.Sprintf("revision %d", w.Before.rev())
}

// siteView returns the flag and text of a site in an observation.
func siteView(o iyra.Observation, site string) (bool, string) {
	switch site {
	case "archive":
		return o.ArchiveChecked, o.ArchiveTestimony
	case "harbor":
		return o.HarborChecked, o.HarborTestimony
	default:
		return o.SpireChecked, o.SpireFact
	}
}

var reasonCodes = []string{iyra.TruthReleased, iyra.UnverifiedBroadcast, iyra.Withdrawn, iyra.BudgetExhausted}

// summaryFields are observer.terminal_hold.summary_fields.
var summaryFields = []string{"outcome", "score", "ending", "allies", "epilogue", "selected_claim", "collected_sources"}

// summaryHolders are where a terminal summary field may sit: the answer's
// top level, its observation, or a summary object.
var summaryHolders = []string{"", "observation", "summary", "terminal_summary"}

// holder returns the object named h in m (m itself for ""), nil when absent.
func holder(m map[string]any, h string) map[string]any {
	if h == "" {
		return m
	}
	obj, _ := m[h].(map[string]any)
	return obj
}

// hasKey reports whether obj holds key, whatever its value (null included).
func hasKey(obj map[string]any, key string) bool {
	_, ok := obj[key]
	return ok
}

// summaryKeys lists the keys of every place a summary field may sit, as
// "top level: [...]; observation: [...]", for the failure message.
func summaryKeys(m map[string]any) string {
	var parts []string
	for _, h := range summaryHolders {
		obj := holder(m, h)
		if obj == nil {
			continue
		}
		name := h
		if name == "" {
			name = "top level"
		}
		parts = append(parts, fmt.Sprintf("%s: %v", name, keys(obj)))
	}
	return strings.Join(parts, "; ")
}

// fmtPtr shows an optional integer, "absent" when missing.
func fmtPtr(p *int) string {
	if p == nil {
		return "absent"
	}
	return fmt.Sprint(*p)
}

// signals returns the three terminal signals of s.
func signals(s *sessionDoc) (terminal, statusDone, phaseDone bool, ok bool) {
	if s.Terminal == nil {
		return false, false, false, false
	}
	return *s.Terminal, s.Status == iyra.StatusFinished, s.Observation.Phase == iyra.PhaseFinished, true
}

// fmtBool shows an optional boolean, "absent" when missing.
func fmtBool(b *bool) string {
	if b == nil {
		return "absent"
	}
	return fmt.Sprint(*b)
}

// epilogue checks whether the epilogue is set (IYRA-EPILOGUE).
func (w *world) epilogue(set bool) error {
	if err := w.accepted(); err != nil {
		return err
	}
	if got := w.sess.Observation.Epilogue; (got != "") != set {
		want := "an empty epilogue"
		if set {
			want = "a non-empty epilogue"
		}
		return verdict.Failf(w.rule(), want, got, "ending %q", w.sess.Observation.Ending)
	}
	return nil
}

// The field names that would carry private content: truth is server-secret
// and may appear in no response, field notes are participant-only and may
// appear in no public surface.
var (
	truthKeys = []string{"truth", "secret"}
	noteKeys  = []string{"field_notes", "fieldnotes", "notes"}
)
