package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"pgregory.net/rapid"

	sx "github.com/agentgames/conformance/reference/shareexchange"
	"github.com/agentgames/conformance/reference/skeleton"
)

// TestReadRequestReadsAsKindFirst: reading a body as a pull first gives
// every body the reading it had when its kind was decoded first (the
// reader before, kept below as the oracle): the same pull, the same offer,
// the same refusal, for pulls, offers, kinds in any case and of any type,
// unknown fields and wrong types.
func TestReadRequestReadsAsKindFirst(t *testing.T) {
	member := rapid.SampledFrom([]string{`"protocol":"abp-share-exchange/1"`, `"challenge_id":"c1"`, `"round":2`, `"round":"2"`,
		`"requester":"r"`, `"agent_id":"a"`, `"share_index":1`, `"share_index":1.5`, `"kind":"offer"`, `"Kind":"offer"`, `"KIND":"offer"`,
		`"kind":"pull"`, `"kind":5`, `"kind":null`, `"to":"b"`, `"share_hex":"00"`, `"bogus":1`, `"Agent_ID":"z"`})
	rapid.Check(t, func(t *rapid.T) {
		ms := rapid.SliceOfNDistinct(member, 0, 7, func(m string) string { return m[:strings.Index(m, ":")] }).Draw(t, "members")
		raw := []byte("{" + strings.Join(ms, ",") + "}")
		if readExchangeCheck(raw) != nil {
			t.Skip("not one checked object")
		}
		pull, offer, refusal := readRequest(raw)
		wpull, woffer, wrefusal := kindFirst(raw)
		if refusal != wrefusal || (offer == nil) != (woffer == nil) || (offer != nil && *offer != *woffer) || (refusal == "" && offer == nil && pull != wpull) {
			t.Fatalf("%s:\n got %+v %+v %q\nwant %+v %+v %q", raw, pull, offer, refusal, wpull, woffer, wrefusal)
		}
	})
}

// readExchangeCheck is readExchange's check of a body's bytes.
func readExchangeCheck(raw []byte) *skeleton.InputError { return skeleton.CheckJSON(raw) }

// kindFirst is the reading readRequest replaced: the kind decoded first,
// then the body decoded as that kind's request.
func kindFirst(raw []byte) (pullBody, *sx.Offer, string) {
	var kind struct {
		Kind string `json:"kind"`
	}
	_ = json.Unmarshal(raw, &kind)
	if kind.Kind == "offer" {
		var o sx.Offer
		if ierr := skeleton.DecodeStrict(raw, &o); ierr != nil {
			return pullBody{}, nil, "malformed offer: " + ierr.Message
		}
		return pullBody{}, &o, ""
	}
	var body pullBody
	if ierr := skeleton.DecodeStrict(raw, &body); ierr != nil {
		return pullBody{}, nil, "malformed pull: " + ierr.Message
	}
	return body, nil, ""
}

// TestWriteMapIsWrite: an answer written member by member is byte for
// byte what write's json.Encoder writes for the same map, for the
// members an exchange answers with and any text (HTML characters,
// quotes, control characters, non-ASCII, invalid UTF-8, U+2028), numbers
// of both kinds and null.
func TestWriteMapIsWrite(t *testing.T) {
	str := rapid.OneOf(rapid.String(), rapid.SampledFrom([]string{"", "ok", "<a&b>", `"\`, "\x00\n", "校閲", "\xff", "\u2028", "not_broker"}))
	val := rapid.OneOf(rapid.Map(str, func(s string) any { return s }), rapid.Map(rapid.Int(), func(n int) any { return n }),
		rapid.Map(rapid.Bool(), func(b bool) any { return b }), rapid.Map(rapid.Float64(), func(f float64) any { return f }),
		rapid.Just[any](nil), rapid.Just[any](map[string]any{"kind": "<offer>"}))
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.MapOf(str, val).Draw(t, "body")
		var want bytes.Buffer
		_ = json.NewEncoder(&want).Encode(m)
		got, ok := appendMap(nil, m)
		if !ok || !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%v:\n got %s (%v)\nwant %s", m, got, ok, want.Bytes())
		}
	})
}

// TestAMalformedOfferIsRefusedAsAnOffer: an offer whose share_index a
// decoding trips on (3.5, "3") is refused 400 bad_request with kind:
// offer, as every offer refusal is (SX-REFUSED-BODY), and a malformed
// pull's refusal carries no kind.
func TestAMalformedOfferIsRefusedAsAnOffer(t *testing.T) {
	r := &Responder{}
	for body, kind := range map[string]any{
		`{"protocol":"abp-share-exchange/1","kind":"offer","challenge_id":"c","round":1,"agent_id":"a","to":"b","share_index":3.5,"share_hex":"00"}`: "offer",
		`{"protocol":"abp-share-exchange/1","kind":"offer","challenge_id":"c","round":1,"agent_id":"a","to":"b","share_index":"3","share_hex":"00"}`: "offer",
		`{"protocol":"abp-share-exchange/1","challenge_id":"c","round":1,"requester":"r","agent_id":"a","share_index":2.5}`:                          nil,
	} {
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body)))
		var got map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &got)
		if rec.Code != http.StatusBadRequest || got["code"] != "bad_request" || got["kind"] != kind {
			t.Errorf("%s: %d %v, want 400 bad_request with kind %v", body, rec.Code, got, kind)
		}
	}
}
