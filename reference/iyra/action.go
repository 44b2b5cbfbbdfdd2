package iyra

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/agentgames/conformance/reference/skeleton/jsonscan"
)

// Kind classifies a rejection so the server can pick its status without the
// engine knowing HTTP: bad input (400), a state conflict (409) or a rule
// rejection of a well-formed action (422). IYRA-STATUS-CODES
type Kind int

// The rejection kinds.
const (
	BadInput Kind = iota
	Conflict
	RuleRejected
)

// Rejection is why an action was not accepted. Rule names the catalogue
// rule the rejection enforces; Code is the machine-readable error code.
type Rejection struct {
	Kind    Kind
	Code    string
	Rule    string
	Message string
}

// Error lets a rejection travel as an error.
func (r *Rejection) Error() string { return r.Code + ": " + r.Message }

// reject builds a Rejection.
func reject(kind Kind, code, rule, format string, args ...any) *Rejection {
	return &Rejection{Kind: kind, Code: code, Rule: rule, Message: fmt.Sprintf(format, args...)}
}

// Action is one caller-selected action with its declared parameter. Field
// order is fixed: it is also the canonical encoding the replay chain hashes.
type Action struct {
	Type    string `json:"type"`
	Site    string `json:"site,omitempty"`
	Faction string `json:"faction,omitempty"`
	Claim   string `json:"claim,omitempty"`
}

// Canonical returns the action's canonical JSON (IYRA-REPLAY-INTEGRITY):
// json.Marshal's bytes, which the replay chain hashes. An action of
// printable ASCII needing no escape (every action the rules accept) is
// written directly, in the fields' order with the empty ones left out as
// their omitempty tags say; any other goes through json.Marshal itself.
func (a Action) Canonical() []byte {
	if !canonicalPlain(a.Type) || !canonicalPlain(a.Site) || !canonicalPlain(a.Faction) || !canonicalPlain(a.Claim) {
		raw, _ := json.Marshal(a) // a struct of strings always marshals
		return raw
	}
	b := make([]byte, 0, 32+len(a.Type)+len(a.Site)+len(a.Faction)+len(a.Claim))
	b = append(append(append(b, `{"type":"`...), a.Type...), '"')
	for _, f := range [...]struct{ name, v string }{{"site", a.Site}, {"faction", a.Faction}, {"claim", a.Claim}} {
		if f.v != "" {
			b = append(append(append(append(append(b, `,"`...), f.name...), `":"`...), f.v...), '"')
		}
	}
	return append(b, '}')
}

// canonicalPlain reports whether json.Marshal writes s as it is between
// quotes: printable ASCII without a quote, a backslash or the HTML
// characters it escapes.
func canonicalPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// params names the one parameter each action type declares.
var params = map[string]string{
	TypeInvestigate: "site",
	TypeAlly:        "faction",
	TypeSelectClaim: "claim",
	TypeBroadcast:   "",
	TypeWithdraw:    "",
}

// Submission is a decoded action request: the revision beside the action.
// Invalid holds a rule rejection of the action itself (unknown type,
// undeclared parameter); it is reported only after the session and
// revision checks, so a stale request is always a conflict first.
type Submission struct {
	Revision int
	Action   Action
	Invalid  *Rejection
}

// DecodeSubmission parses an action request body {revision, action}. It
// enforces the envelope rules before any game rule: one JSON object without
// repeated keys (IYRA-BAD-INPUT), revision beside and never inside the action
// (IYRA-ACTION-REVISION-PLACEMENT), a present integer revision
// (IYRA-REVISION-STALE: missing is a conflict), action.type present
// (IYRA-ACTION-TYPE-REQUIRED).
func DecodeSubmission(body []byte) (Submission, *Rejection) {
	if err := CheckStrictJSON(body); err != nil {
		return Submission{}, reject(BadInput, "malformed_json", "IYRA-BAD-INPUT", "body must be one JSON object {revision, action}: %v", err)
	}
	env, ok := members(body)
	if !ok {
		return Submission{}, reject(BadInput, "malformed_json", "IYRA-BAD-INPUT", "body must be a JSON object {revision, action}")
	}
	for _, m := range env {
		if m.name != "revision" && m.name != "action" {
			return Submission{}, reject(BadInput, "unknown_field", "IYRA-INPUT-POLICY", "field %q is not part of an action request {revision, action}", m.name)
		}
	}
	rawAction, ok := lookup(env, "action")
	if !ok || isNull(rawAction) {
		return Submission{}, reject(BadInput, "action_required", "IYRA-ACTION-TYPE-REQUIRED", "body must carry an action object beside revision")
	}
	fields, ok := members(rawAction)
	if !ok {
		return Submission{}, reject(BadInput, "invalid_action", "IYRA-BAD-INPUT", "action must be a JSON object")
	}
	if _, inside := lookup(fields, "revision"); inside {
		return Submission{}, reject(BadInput, "revision_inside_action", "IYRA-ACTION-REVISION-PLACEMENT", "revision belongs beside action, never inside it")
	}
	rev, rej := decodeRevision(env)
	if rej != nil {
		return Submission{}, rej
	}
	a, rej := decodeAction(fields)
	if rej != nil && rej.Kind == BadInput {
		return Submission{}, rej
	}
	return Submission{Revision: rev, Action: a, Invalid: rej}, nil
}

// decodeRevision reads the revision beside the action: missing is a conflict, a wrong type bad input.
func decodeRevision(env []member) (int, *Rejection) {
	raw, ok := lookup(env, "revision")
	if !ok || isNull(raw) {
		return 0, reject(Conflict, "revision_required", "IYRA-REVISION-STALE", "revision is required beside action; read the session state for the latest revision")
	}
	rev, ok := integral(raw)
	if !ok {
		return 0, reject(BadInput, "invalid_revision", "IYRA-BAD-INPUT", "revision must be an integer from 0 to 1073741824 (2^30)")
	}
	return rev, nil
}

// maxRevision bounds a revision: no session gets near it (nine actions).
const maxRevision = 1 << 30

// integral reads a JSON number with an integral value, whatever its
// spelling: 1, 1.0 and 1e0 are all revision 1 (IYRA-BAD-INPUT). Strings,
// fractions, negatives and huge values are not.
func integral(raw []byte) (int, bool) {
	f, ok := number(raw)
	if !ok || f != math.Trunc(f) || f < 0 || f > maxRevision {
		return 0, false
	}
	return int(f), true
}

// decodeAction reads the type and the one declared parameter. Unknown
// types and undeclared parameters are rule rejections of a well-formed
// request (422), not malformed input.
func decodeAction(fields []member) (Action, *Rejection) {
	var a Action
	raw, ok := lookup(fields, "type")
	if ok {
		a.Type, ok = unquote(raw)
	}
	if !ok || a.Type == "" {
		return a, reject(BadInput, "action_type_required", "IYRA-ACTION-TYPE-REQUIRED", "action.type is required and must be a string")
	}
	param, known := params[a.Type]
	if !known {
		return a, reject(RuleRejected, "unknown_action", "IYRA-LEGAL-CATALOGUE", "action type %q is not in legal_actions", a.Type)
	}
	for _, m := range fields {
		if m.name != "type" && m.name != param {
			return a, reject(RuleRejected, "invalid_parameter", "IYRA-LEGAL-CATALOGUE", "%s does not declare parameter %q", a.Type, m.name)
		}
	}
	if param == "" {
		return a, nil
	}
	raw, ok = lookup(fields, param)
	var v string
	if ok {
		v, ok = unquote(raw)
	}
	if !ok || v == "" {
		return a, reject(RuleRejected, "invalid_parameter", "IYRA-LEGAL-CATALOGUE", "%s requires a string %s", a.Type, param)
	}
	switch param {
	case "site":
		a.Site = v
	case "faction":
		a.Faction = v
	case "claim":
		a.Claim = v
	}
	return a, nil
}

// CheckStrictJSON reports whether body is exactly one JSON value in which no
// object repeats a key. encoding/json keeps the last of repeated keys, so
// {"site":"moon","site":"archive"} would otherwise mean what a reader of the
// first key does not expect (IYRA-BAD-INPUT). The kit's one JSON scanner
// reads it, with no bound of its own: the body's size limit bounds it.
func CheckStrictJSON(body []byte) error {
	if err := jsonscan.Scan(body, unbounded); err != nil {
		return errors.New(err.Message)
	}
	return nil
}

// unbounded lifts every structural bound of jsonscan: only validity and
// repeated keys are CheckStrictJSON's to refuse.
var unbounded = jsonscan.Bounds{MaxDepth: math.MaxInt32, MaxItems: math.MaxInt32, MaxString: math.MaxInt32, MaxValues: math.MaxInt32}

// isNull reports whether a raw JSON value is null.
func isNull(raw []byte) bool { return string(bytes.TrimSpace(raw)) == "null" }
