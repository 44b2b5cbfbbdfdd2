package server

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"

	"github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/skeleton"
)

// TestSessionEncodingMatchesEncodingJSON: the hand-written session
// encoder writes byte for byte what encoding/json writes for the same
// answer, in every state a played game reaches (active and finished, every
// variant) and for any text in its fields (quotes, control characters,
// HTML, invalid UTF-8, U+2028, nil and empty lists).
func TestSessionEncodingMatchesEncodingJSON(t *testing.T) {
	pack := iyra.DefaultPack()
	t.Run("played", rapid.MakeCheck(func(t *rapid.T) {
		v := rapid.SampledFrom(pack.Variants).Draw(t, "variant")
		s := &session{id: "ses_" + rapid.StringMatching(`[0-9a-f]{24}`).Draw(t, "id"), slug: Slug, version: VersionID, variant: v.ID}
		s.game = iyra.NewGame(iyra.DefaultRules(), v, pack.Epilogues, iyra.ChainSeed(s.id, VersionID))
		srv := &Server{}
		for i := range rapid.IntRange(0, 12).Draw(t, "actions") {
			same(t, srv.sessionBody(s))
			s.game.Apply(drawAction(t, i))
		}
		same(t, srv.sessionBody(s))
	}))
	t.Run("any text", rapid.MakeCheck(func(t *rapid.T) {
		str := rapid.OneOf(rapid.String(), rapid.SampledFrom([]string{"", "<a&b>", "\u2028\u2029", "\xff\xfe", "\"\\\b\f\n\r\t\x00\x1f\x7f"}))
		list := rapid.OneOf(rapid.Just([]string(nil)), rapid.SliceOf(str))
		r := sessionResponse{SessionID: str.Draw(t, "id"), Slug: str.Draw(t, "slug"), VersionID: str.Draw(t, "version"),
			Variant: str.Draw(t, "variant"), StateURL: str.Draw(t, "state"), ActionsURL: str.Draw(t, "actions"), ReplayURL: str.Draw(t, "replay")}
		r.Revision, r.Score, r.Terminal = rapid.Int().Draw(t, "revision"), rapid.Int().Draw(t, "score"), rapid.Bool().Draw(t, "terminal")
		r.Status, r.Outcome = str.Draw(t, "status"), str.Draw(t, "outcome")
		r.Observation = iyra.Observation{Chapter: str.Draw(t, "chapter"), Trust: rapid.Int().Draw(t, "trust"), Allies: list.Draw(t, "allies"),
			ArchiveTestimony: str.Draw(t, "testimony"), SpireChecked: rapid.Bool().Draw(t, "spire"), CollectedSources: list.Draw(t, "sources")}
		r.Progress = iyra.Progress{Evidence: iyra.Gauge{Value: rapid.Int().Draw(t, "ev"), Target: 4}, Milestones: list.Draw(t, "milestones"),
			InspectedSites: list.Draw(t, "sites"), Epilogue: str.Draw(t, "epilogue")}
		r.LegalActions = rapid.SampledFrom([][]iyra.LegalAction{nil, {}, iyra.Catalogue()[:2]}).Draw(t, "legal")
		same(t, r)
	}))
}

// drawAction draws an action an agent might send, legal or not.
func drawAction(t *rapid.T, i int) iyra.Action {
	return rapid.SampledFrom([]iyra.Action{
		{Type: iyra.TypeInvestigate, Site: string(iyra.Sites[i%len(iyra.Sites)])},
		{Type: iyra.TypeAlly, Faction: string(iyra.Keepers)},
		{Type: iyra.TypeSelectClaim, Claim: string(iyra.RelayFault)},
		{Type: iyra.TypeSelectClaim, Claim: string(iyra.RecordOmission)},
		{Type: iyra.TypeBroadcast}, {Type: iyra.TypeWithdraw},
	}).Draw(t, "action")
}

// same fails unless appendSession writes what encoding/json writes.
func same(t *rapid.T, r sessionResponse) {
	want := skeleton.EncodeJSON(200, r).Body
	if got := appendSession(nil, r); !bytes.Equal(got, want) {
		t.Fatalf("hand-written encoding differs:\n got %s\nwant %s", got, want)
	}
}
