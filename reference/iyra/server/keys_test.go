package server

import (
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestValidKeyIsTheContractFormat: validKey accepts exactly the keys the
// contract's pattern ^[A-Za-z0-9._:-]{8,128}$ matches (IYRA-SESSION-KEY-REQUIRED),
// around the length bounds and for any byte.
func TestValidKeyIsTheContractFormat(t *testing.T) {
	format := regexp.MustCompile(`^[A-Za-z0-9._:-]{8,128}$`)
	rapid.Check(t, func(t *rapid.T) {
		key := rapid.OneOf(rapid.StringMatching(`[A-Za-z0-9._:-]{6,130}`), rapid.StringMatching(`[A-Za-z0-9._:/ \x00é-]{6,12}`), rapid.String()).Draw(t, "key")
		if validKey(key) != format.MatchString(key) {
			t.Fatalf("validKey(%q) = %v, the pattern says %v", key, validKey(key), format.MatchString(key))
		}
	})
}

// TestPlainCreateReadsAsTheDecoder: every creation body the direct scan
// reads, decodeObject reads alike (the same three optional fields), and
// every body decodeObject refuses the scan leaves to it: spacing, names in
// other cases, repeats, null, numbers, escapes, unknown fields.
func TestPlainCreateReadsAsTheDecoder(t *testing.T) {
	member := rapid.SampledFrom([]string{`"ready_to_act":true`, `"ready_to_act":false`, `"ready_to_act":"true"`, `"ready_to_act":null`,
		`"Ready_To_Act":true`, `"accepted_version_id":"` + VersionID + `"`, `"accepted_version_id":""`, `"accepted_version_id":7`,
		`"accepted_version_id":null`, `"variant":"quiet_city"`, `"variant":"\u0071uiet"`, `"variant":"校閲"`, `"bogus":1`, `"variant":true`})
	rapid.Check(t, func(t *rapid.T) {
		ms := rapid.SliceOfN(member, 0, 5).Draw(t, "members")
		sep := rapid.SampledFrom([]string{",", " , ", ",\n"}).Draw(t, "sep")
		body := []byte("{" + strings.Join(ms, sep) + "}")
		var want createRequest
		werr := decodeObject(body, &want)
		got, ok := plainCreate(body)
		switch {
		case ok && werr != nil:
			t.Fatalf("%s: the scan read it, the decoder refused it: %v", body, werr)
		case ok && fingerprint(Slug, got) != fingerprint(Slug, want):
			t.Fatalf("%s: the scan read %q, the decoder %q", body, fingerprint(Slug, got), fingerprint(Slug, want))
		case ok && ((got.ReadyToAct == nil) != (want.ReadyToAct == nil) || (got.Variant == nil) != (want.Variant == nil) ||
			(got.AcceptedVersionID == nil) != (want.AcceptedVersionID == nil)):
			t.Fatalf("%s: the scan and the decoder disagree on which fields are present", body)
		}
	})
}
