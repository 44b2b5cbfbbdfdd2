package iyra

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/iyra"
)

// world is one scenario's state: the client, the session under test and,
// from the embedded base, the state before the When step (Before) and the
// When step's answer (Last).
type world struct {
	suite.Scenario[*sessionDoc]
	*client
	sess *sessionDoc // the latest authoritative state
	key  string      // the session's Idempotency-Key

	lastKey string      // the key a creation step used
	acc     *acceptance // identity scenarios
	first   *sessionDoc // a first finished session (factions)
	second  *sessionDoc // a second session (site facts, factions)
	both    *sessionDoc // a verified ending allied with both factions
	replay  []byte
	probes  []*driver.Response // answers to credential probes
	// include is the opt-in layer the scenario asked a version for.
	include string
	// probeHow is the credential variant of the probes.
	probeHow string

	pair   []pairRun                // the two sessions of a boundary scenario
	played map[string][]iyra.Action // accepted actions per session ID
	claim  string                   // how the corroborated claim was learned, for messages
}

// parseScript reads "investigate archive, ally keepers, broadcast" into
// actions: each item is a type and, for the types that declare one, the
// value of their parameter.
func parseScript(script string) []iyra.Action {
	var out []iyra.Action
	for _, item := range strings.Split(script, ",") {
		fields := strings.Fields(item)
		if len(fields) == 0 {
			continue
		}
		a := iyra.Action{Type: fields[0]}
		if len(fields) > 1 {
			switch a.Type {
			case iyra.TypeInvestigate:
				a.Site = fields[1]
			case iyra.TypeAlly:
				a.Faction = fields[1]
			case iyra.TypeSelectClaim:
				a.Claim = fields[1]
			}
		}
		out = append(out, a)
	}
	return out
}

// setupRule names the rule a setup action breaks when a target refuses it:
// every scripted setup is legal under the contract.
func setupRule(a iyra.Action) string {
	switch a.Type {
	case iyra.TypeInvestigate:
		return "IYRA-SITE-ONCE"
	case iyra.TypeAlly:
		return "IYRA-ALLY-TRUST"
	case iyra.TypeSelectClaim:
		return "IYRA-CLAIM-FIRST"
	case iyra.TypeBroadcast:
		return "IYRA-BROADCAST-ACCEPTED"
	case iyra.TypeWithdraw:
		return "IYRA-WITHDRAW"
	}
	return "IYRA-LEGAL-CATALOGUE"
}

// rule names the rule a generic step (a status, a refusal, a field shared
// by several rules) checks: the scenario's first catalogued rule tag.
func (w *world) rule() string { return w.RuleTag(w.env.Catalogue) }

// versionBoundRules are the rules outside $.game.gameplay_contract that
// still check this version's game: its five action types and parameter
// values (after_verify: the assignment "may differ from this public preview
// during rollout").
var versionBoundRules = map[string]bool{"IYRA-LEGAL-CATALOGUE": true, "IYRA-ASSIGNMENT-EXACT": true, "IYRA-LEGAL-SHAPE": true}

// versionBound reports whether the scenario checks a rule of the gameplay
// contract, which binds only the version the contract describes.
func (w *world) versionBound() bool {
	for _, t := range w.Tags {
		if r, ok := w.env.Catalogue.Rule(t); ok && (strings.HasPrefix(r.Path, "$.game.gameplay_contract") || versionBoundRules[t]) {
			return true
		}
	}
	return false
}

// play submits one action at the latest revision and, when accepted,
// adopts the answer as the authoritative state.
func (w *world) play(ctx context.Context, a iyra.Action) (*driver.Response, error) {
	if w.sess == nil {
		return nil, verdict.Errorf("no session: the scenario must create one first")
	}
	resp, s, err := w.playOn(ctx, w.sess, a)
	if s != nil {
		w.sess = s
	}
	return resp, err
}

// playOn submits one action to session s at its latest revision; the new
// state is returned when the action is accepted, and the action is
// remembered as accepted (IYRA-REPLAY-FAITHFUL).
func (w *world) playOn(ctx context.Context, s *sessionDoc, a iyra.Action) (*driver.Response, *sessionDoc, error) {
	resp, err := w.submit(ctx, s, w.envelope(s, s.rev(), a), nil)
	if err != nil || resp.Status/100 != 2 {
		return resp, nil, err
	}
	next, err := decodeSession(resp)
	if err != nil {
		return resp, nil, err
	}
	w.played[next.SessionID] = append(w.played[next.SessionID], a)
	return resp, next, nil
}

// playScript plays a setup script on session s, every action accepted, and
// returns the latest state.
func (w *world) playScript(ctx context.Context, s *sessionDoc, script string) (*sessionDoc, error) {
	if s == nil {
		return nil, verdict.Errorf("no session: the scenario must create one first")
	}
	for _, a := range parseScript(script) {
		resp, next, err := w.playOn(ctx, s, a)
		if err != nil {
			return s, err
		}
		if next == nil {
			return s, verdict.Failf(setupRule(a), "setup action accepted", resp.Status, "%s %s: %s", a.Type, string(a.Canonical()), clip(resp.Body))
		}
		s = next
	}
	return s, nil
}

// when runs a When step's request: it snapshots the state before and
// keeps the answer for the Then steps.
func (w *world) when(ctx context.Context, do func() (*driver.Response, error)) error {
	w.Before = w.sess
	w.MarkWhen()
	resp, err := do()
	if err != nil {
		return err
	}
	w.Last = resp
	return nil
}

// needSession fails the harness when a step runs before any session.
func (w *world) needSession() error {
	if w.sess == nil {
		return verdict.Errorf("the scenario has no session yet")
	}
	return nil
}

// sameStrings compares string lists, treating nil and empty alike.
func sameStrings(a, b []string) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}
