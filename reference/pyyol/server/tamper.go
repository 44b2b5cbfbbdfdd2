package server

import (
	"bytes"
	"encoding/json"

	"github.com/agentgames/conformance/reference/pyyol/manifest"
)

// Tamper names a deliberate defect, for the kit's own tests: a broken
// gateway the runner must catch. The zero value is a faithful gateway.
type Tamper string

// The defects the tamper tests use.
const (
	// AnyID applies any response to the turn in flight, whatever its id.
	AnyID Tamper = "any-id"
	// LateApplies applies a response to a turn that already timed out to
	// the turn in flight instead.
	LateApplies Tamper = "late-applies"
	// NoFallback wedges the match instead of falling back.
	NoFallback Tamper = "no-fallback"
	// FallbackHighest falls back to the highest card instead of the lowest.
	FallbackHighest Tamper = "fallback-highest"
	// IgnoresRound plays a move's card whatever round it names.
	IgnoresRound Tamper = "ignores-round"
	// AcceptAnyToken registers any token.
	AcceptAnyToken Tamper = "accept-any-token"
	// NoReregister refuses a second registration while a match runs.
	NoReregister Tamper = "no-reregister"
	// UnorderedEvents sends each round's events in reverse order.
	UnorderedEvents Tamper = "unordered-events"
	// FakeOpen announces open prizes but shuffles them.
	FakeOpen Tamper = "fake-open"
	// VerifiesAnything reports every endpoint verified.
	VerifiesAnything Tamper = "verifies-anything"
	// SignsWrongPath signs the platform's calls over the path "/".
	SignsWrongPath Tamper = "signs-wrong-path"
	// CertifiesAnyone lets uncertified agents queue.
	CertifiesAnyone Tamper = "certifies-anyone"
	// ShowsDisabledTiers puts disabled tiers on the public menu.
	ShowsDisabledTiers Tamper = "shows-disabled-tiers"
	// OpenAdmin serves the admin API without a token.
	OpenAdmin Tamper = "open-admin"
	// AcceptsAnyTiers stores tier sets without validating them.
	AcceptsAnyTiers Tamper = "accepts-any-tiers"
	// IgnoresLimits queues stakes beyond the agent's limits.
	IgnoresLimits Tamper = "ignores-limits"
	// StrictLimits refuses a stake that meets a bound exactly.
	StrictLimits Tamper = "strict-limits"
	// IgnoresLossCaps queues stakes past the daily and session loss caps.
	IgnoresLossCaps Tamper = "ignores-loss-caps"
	// IgnoresCooldown queues stakes during a cooldown.
	IgnoresCooldown Tamper = "ignores-cooldown"
	// IgnoresConcurrency queues stakes past max_concurrent_matches.
	IgnoresConcurrency Tamper = "ignores-concurrency"
	// StakesPractice charges a lost practice match the lowest tier.
	StakesPractice Tamper = "stakes-practice"
	// RejectsDashboardJWT refuses a dashboard JWT as a register token.
	RejectsDashboardJWT Tamper = "rejects-dashboard-jwt"
	// NeverOffline keeps a silent socket open however long it is silent.
	NeverOffline Tamper = "never-offline"
	// KeepsTieStakes takes the rake from a tied match.
	KeepsTieStakes Tamper = "keeps-tie-stakes"
	// AwaitsEventAcks holds the match until the agent answers each event.
	AwaitsEventAcks Tamper = "awaits-event-acks"
	// RejectsYAML accepts JSON manifests only.
	RejectsYAML Tamper = "rejects-yaml"
	// AcceptsSnakeCase reads manifest_version as manifestVersion.
	AcceptsSnakeCase Tamper = "accepts-snake-case"
)

// tamperManifest applies the manifest defects to a submitted body; false
// refuses it.
func (g *Gateway) tamperManifest(raw []byte) ([]byte, bool) {
	switch g.opts.Tamper {
	case RejectsYAML:
		return raw, bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{"))
	case AcceptsSnakeCase:
		return bytes.ReplaceAll(raw, []byte("manifest_version"), []byte("manifestVersion")), true
	}
	return raw, true
}

// skipRule drops the field errors Options.SkipField names: a platform
// that forgot one field rule.
func (g *Gateway) skipRule(errs []manifest.FieldError) []manifest.FieldError {
	if g.opts.SkipField == "" {
		return errs
	}
	var out []manifest.FieldError
	for _, e := range errs {
		if e.Field != g.opts.SkipField {
			out = append(out, e)
		}
	}
	return out
}

// Rewrite edits the frames a broken gateway sends: Edit sees a frame as a
// JSON object and returns the frames to send instead (none drops it).
// With Frame set, only frames of that type (t) are decoded and edited;
// the others go out as encoded, so a broken gateway that edits one kind
// of frame plays a long match about as cheaply as a healthy one.
type Rewrite struct {
	Frame string
	Edit  func(frame map[string]any) []map[string]any
}

// EveryFrame is the Rewrite that hands edit every frame.
func EveryFrame(edit func(frame map[string]any) []map[string]any) Rewrite {
	return Rewrite{Edit: edit}
}

// skips reports whether the rewrite leaves data alone: it edits one frame
// type and data, as the gateway encodes frames (t first), is another.
func (r Rewrite) skips(data []byte) bool {
	const lead = `{"t":"`
	if r.Frame == "" || !bytes.HasPrefix(data, []byte(lead)) {
		return false
	}
	rest := data[len(lead):]
	return !bytes.HasPrefix(rest, []byte(r.Frame+`"`))
}

// rewrite passes a frame through Options.Rewrite; without one it is the
// frame itself, already encoded.
func (g *Gateway) rewrite(frame any) ([][]byte, error) {
	data, err := encodeFrame(frame)
	if err != nil || g.opts.Rewrite.Edit == nil || g.opts.Rewrite.skips(data) {
		return [][]byte{data}, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	var out [][]byte
	for _, f := range g.opts.Rewrite.Edit(m) {
		b, err := json.Marshal(f)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}
