package iyra

import (
	"encoding/json"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// TestDecodeSubmissionAgreesWithMapDecoding: the byte walk reads every
// action body as decoding it into maps of raw messages read it (the
// decoder before it, kept below as the oracle): the same rejection code,
// kind and rule, the same revision and action. Messages are compared too,
// except where the maps' random order picked which unknown field or
// parameter a message names.
func TestDecodeSubmissionAgreesWithMapDecoding(t *testing.T) {
	part := rapid.SampledFrom([]string{`"revision"`, `"action"`, `"type"`, `"site"`, `"claim"`, `"faction"`, `"x"`, `"\u0074ype"`,
		`"Revision"`, `"investigate"`, `"archive"`, `"withdraw"`, `"select_claim"`, `"ally"`, `"relay_fault"`, `"keepers"`, `"\u00e9"`, `"a\"b"`, `""`,
		`0`, `1`, `3`, `1.0`, `1e0`, `-0`, `-1`, `1.5`, `2e30`, `1e400`, `null`, `true`, `{}`, `[]`, `[1,{"a":2}]`, ` `, "\n", `:`, `,`, `{`, `}`, `[`, `]`})
	t.Run("generated", rapid.MakeCheck(func(t *rapid.T) {
		body := ""
		for _, p := range rapid.SliceOfN(part, 1, 24).Draw(t, "parts") {
			body += p
		}
		agree(t, []byte(body))
	}))
	t.Run("shaped", rapid.MakeCheck(func(t *rapid.T) {
		val := rapid.SampledFrom([]string{`"archive"`, `"spire"`, `"keepers"`, `"relay_fault"`, `null`, `7`, `""`, `"\u0061rchive"`, `{"a":"}"}`})
		typ := rapid.SampledFrom([]string{`"investigate"`, `"ally"`, `"select_claim"`, `"broadcast"`, `"withdraw"`, `"dance"`, `null`, `1`, `"inv\u0065stigate"`})
		key := rapid.SampledFrom([]string{`"site"`, `"faction"`, `"claim"`, `"revision"`, `"extra"`})
		rev := rapid.SampledFrom([]string{`0`, `4`, `4.0`, `4e0`, `-4`, `4.5`, `"4"`, `null`, `1073741825`})
		action := `{"type":` + typ.Draw(t, "type")
		for range rapid.IntRange(0, 2).Draw(t, "params") {
			action += `,` + key.Draw(t, "key") + `: ` + val.Draw(t, "value")
		}
		action += `}`
		body := rapid.SampledFrom([]string{`{"revision":R,"action":A}`, `{ "action" : A , "revision" : R }`, `{"action":A}`, `{"revision":R}`,
			`{"revision":R,"action":A,"more":1}`, `{"revision":R,"action":A,"b":2,"c":3}`, `[A]`}).Draw(t, "body")
		agree(t, []byte(replaceAll(replaceAll(body, "R", rev.Draw(t, "revision")), "A", action)))
	}))
}

// replaceAll replaces the one-letter placeholder p in s.
func replaceAll(s, p, v string) string {
	out := ""
	for _, c := range s {
		if string(c) == p {
			out += v
		} else {
			out += string(c)
		}
	}
	return out
}

// agree fails unless DecodeSubmission reads body as the oracle does.
func agree(t *rapid.T, body []byte) {
	got, grej := DecodeSubmission(body)
	want, wrej := decodeWithMaps(body)
	if !sameRejection(grej, wrej) || got.Revision != want.Revision || got.Action != want.Action || !sameRejection(got.Invalid, want.Invalid) {
		t.Fatalf("%s:\n got %+v %+v\nwant %+v %+v", body, got, grej, want, wrej)
	}
}

// sameRejection compares two rejections, messages included where they
// are deterministic.
func sameRejection(a, b *Rejection) bool {
	if a == nil || b == nil {
		return a == b
	}
	random := a.Code == "unknown_field" || a.Code == "invalid_parameter"
	return a.Kind == b.Kind && a.Code == b.Code && a.Rule == b.Rule && (random || a.Message == b.Message)
}

func decodeWithMaps(body []byte) (Submission, *Rejection) {
	if err := CheckStrictJSON(body); err != nil {
		return Submission{}, reject(BadInput, "malformed_json", "IYRA-BAD-INPUT", "body must be one JSON object {revision, action}: %v", err)
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(body, &env); err != nil || env == nil {
		return Submission{}, reject(BadInput, "malformed_json", "IYRA-BAD-INPUT", "body must be a JSON object {revision, action}")
	}
	for k := range env {
		if k != "revision" && k != "action" {
			return Submission{}, reject(BadInput, "unknown_field", "IYRA-INPUT-POLICY", "field %q is not part of an action request {revision, action}", k)
		}
	}
	rawAction, ok := env["action"]
	if !ok || oldIsNull(rawAction) {
		return Submission{}, reject(BadInput, "action_required", "IYRA-ACTION-TYPE-REQUIRED", "body must carry an action object beside revision")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(rawAction, &fields); err != nil || fields == nil {
		return Submission{}, reject(BadInput, "invalid_action", "IYRA-BAD-INPUT", "action must be a JSON object")
	}
	if _, inside := fields["revision"]; inside {
		return Submission{}, reject(BadInput, "revision_inside_action", "IYRA-ACTION-REVISION-PLACEMENT", "revision belongs beside action, never inside it")
	}
	rev, rej := oldDecodeRevision(env)
	if rej != nil {
		return Submission{}, rej
	}
	a, rej := oldDecodeAction(fields)
	if rej != nil && rej.Kind == BadInput {
		return Submission{}, rej
	}
	return Submission{Revision: rev, Action: a, Invalid: rej}, nil
}

// decodeRevision reads the revision beside the action: missing is a conflict, a wrong type bad input.
func oldDecodeRevision(env map[string]json.RawMessage) (int, *Rejection) {
	raw, ok := env["revision"]
	if !ok || oldIsNull(raw) {
		return 0, reject(Conflict, "revision_required", "IYRA-REVISION-STALE", "revision is required beside action; read the session state for the latest revision")
	}
	rev, ok := oldIntegral(raw)
	if !ok {
		return 0, reject(BadInput, "invalid_revision", "IYRA-BAD-INPUT", "revision must be an integer from 0 to 1073741824 (2^30)")
	}
	return rev, nil
}

// integral reads a JSON number with an integral value, whatever its
// spelling: 1, 1.0 and 1e0 are all revision 1 (IYRA-BAD-INPUT). Strings,
// fractions, negatives and huge values are not.
func oldIntegral(raw json.RawMessage) (int, bool) {
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil || f != math.Trunc(f) || f < 0 || f > maxRevision {
		return 0, false
	}
	return int(f), true
}

// decodeAction reads the type and the one declared parameter. Unknown
// types and undeclared parameters are rule rejections of a well-formed
// request (422), not malformed input.
func oldDecodeAction(fields map[string]json.RawMessage) (Action, *Rejection) {
	var a Action
	raw, ok := fields["type"]
	if !ok || json.Unmarshal(raw, &a.Type) != nil || a.Type == "" {
		return a, reject(BadInput, "action_type_required", "IYRA-ACTION-TYPE-REQUIRED", "action.type is required and must be a string")
	}
	param, known := params[a.Type]
	if !known {
		return a, reject(RuleRejected, "unknown_action", "IYRA-LEGAL-CATALOGUE", "action type %q is not in legal_actions", a.Type)
	}
	for k := range fields {
		if k != "type" && k != param {
			return a, reject(RuleRejected, "invalid_parameter", "IYRA-LEGAL-CATALOGUE", "%s does not declare parameter %q", a.Type, k)
		}
	}
	if param == "" {
		return a, nil
	}
	var v string
	if raw, ok := fields[param]; !ok || json.Unmarshal(raw, &v) != nil || v == "" {
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

func oldIsNull(raw json.RawMessage) bool { return isNull(raw) }

// TestCanonicalIsJSONMarshal: an action's canonical bytes, which the
// replay chain hashes, are json.Marshal's for any action: the accepted
// ones and any text in any field (quotes, HTML, control characters,
// non-ASCII, invalid UTF-8, empty fields).
func TestCanonicalIsJSONMarshal(t *testing.T) {
	str := rapid.OneOf(rapid.String(), rapid.SampledFrom([]string{"", "archive", "keepers", "relay_fault", "investigate", "<a&b>", `"`, `\`, "\x00", "é", "\xff", "\u2028"}))
	rapid.Check(t, func(t *rapid.T) {
		a := Action{Type: str.Draw(t, "type"), Site: str.Draw(t, "site"), Faction: str.Draw(t, "faction"), Claim: str.Draw(t, "claim")}
		want, _ := json.Marshal(a)
		if got := a.Canonical(); string(got) != string(want) {
			t.Fatalf("%+v: canonical %s, json.Marshal %s", a, got, want)
		}
	})
}
