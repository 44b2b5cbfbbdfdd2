package authoring_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/forge"
	"github.com/agentgames/conformance/reference/forge/authoring"
)

// base is seed level 10 as a package to edit.
func base(t *testing.T) map[string]any {
	seed, err := forge.SeedPackages()
	require.NoError(t, err)
	var p map[string]any
	require.NoError(t, json.Unmarshal(seed[9], &p))
	return p
}

func validate(t *testing.T, p map[string]any) error {
	raw, _ := json.Marshal(p)
	n, err := authoring.Normalize(raw)
	if err != nil {
		return err
	}
	_, err = authoring.Validator{}.Validate(n)
	return err
}

func codeOf(err error) string {
	if r, ok := err.(*authoring.Rejection); ok {
		return r.Code
	}
	return ""
}

func pub(p map[string]any) map[string]any  { return p["public"].(map[string]any) }
func priv(p map[string]any) map[string]any { return p["private"].(map[string]any) }

func TestEveryValidationStepRejectsWithItsCode(t *testing.T) {
	require.NoError(t, validate(t, base(t)))
	cases := []struct {
		code string
		edit func(p map[string]any)
	}{
		{authoring.CodeSchema, func(p map[string]any) { delete(p, "private") }},
		{authoring.CodeSchema, func(p map[string]any) { p["author"] = "me" }},
		{authoring.CodeSchema, func(p map[string]any) { p["position"] = 3 }},
		{authoring.CodeSchema, func(p map[string]any) { pub(p)["title"] = strings.Repeat("t", 81) }},
		{authoring.CodeTypes, func(p map[string]any) {
			priv(p)["oracle"] = map[string]any{"steps": []any{map[string]any{"op": "rle"}, map[string]any{"op": "sort"}}}
		}},
		{authoring.CodeBounds, func(p map[string]any) { pub(p)["inputDomain"].(map[string]any)["minLength"] = 9 }},
		{authoring.CodeBounds, func(p map[string]any) { priv(p)["hiddenInputs"] = []any{[]int{1, 2}, []int{1, 2}, []int{3, 4}} }},
		{authoring.CodeRun, func(p map[string]any) {
			priv(p)["oracle"] = map[string]any{"steps": []any{map[string]any{"op": "map", "fn": "mul", "arg": 1000000000},
				map[string]any{"op": "map", "fn": "mul", "arg": 1000000000}, map[string]any{"op": "reduce", "fn": "sum"}}}
		}},
		{authoring.CodeExample, func(p map[string]any) { pub(p)["examples"].([]any)[0].(map[string]any)["output"] = 99 }},
	}
	for _, c := range cases {
		p := base(t)
		c.edit(p)
		assert.Equal(t, c.code, codeOf(validate(t, p)), "%v", c.code)
	}
}

// TestDifficultyIsRemovedBeforeValidation: the legacy field is accepted,
// validated by the schema in a repository seed, and gone from the
// normalized body a hosted platform compares and stores
// (FORGE-LEGACY-DIFFICULTY-REMOVED).
func TestDifficultyIsRemovedBeforeValidation(t *testing.T) {
	p := base(t)
	plain, _ := json.Marshal(p)
	p["difficulty"] = 4
	with, _ := json.Marshal(p)
	a, err := authoring.Normalize(plain)
	require.NoError(t, err)
	b, err := authoring.Normalize(with)
	require.NoError(t, err)
	assert.Equal(t, a.Canonical, b.Canonical)
	assert.Equal(t, a.Fingerprint, b.Fingerprint)
	assert.NotContains(t, string(b.Canonical), "difficulty")
}

func TestGeneratedInputsAreLegalAndReachTheBounds(t *testing.T) {
	d := authoring.Domain{MinLength: 2, MaxLength: 7, MinValue: -3, MaxValue: 9}
	ins := authoring.Generate(d, "00ff", authoring.GeneratedInputs)
	require.Len(t, ins, 200)
	assert.Len(t, ins[0], 2)
	assert.Len(t, ins[1], 7)
	assert.Equal(t, []int64{-3, 9}, ins[1][:2])
	for _, in := range ins {
		assert.True(t, d.Contains(in))
	}
	assert.Equal(t, ins, authoring.Generate(d, "00ff", 200), "the same fingerprint draws the same inputs")
}

// FuzzNormalizeAndValidate: no body makes normalisation or validation
// panic, and whatever is accepted re-normalises to the same canonical form.
func FuzzNormalizeAndValidate(f *testing.F) {
	seed, _ := forge.SeedPackages()
	for _, s := range seed[:3] {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"id":"x"}`))
	f.Add([]byte(`{"difficulty":3}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		n, err := authoring.Normalize(raw)
		if err != nil {
			return
		}
		if _, err := (authoring.Validator{}).Validate(n); err != nil {
			return
		}
		again, err := authoring.Normalize(n.Canonical)
		if err != nil || string(again.Canonical) != string(n.Canonical) {
			t.Fatalf("canonical form is not stable: %s", n.Canonical)
		}
	})
}
