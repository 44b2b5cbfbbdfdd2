package forge

import "testing"

// TestASecretListIsFoundInAnyTextSpelling: a list of four values or more is
// found in a text whatever separates its values, a shorter one only in its
// JSON spelling, and numbers glued to words or dates are no values of it
// (FORGE-PRIVATE-SERVER-ONLY; docs/detection.md, forge round 8).
func TestASecretListIsFoundInAnyTextSpelling(t *testing.T) {
	s := &secrets{}
	s.addList("a hidden input", []int64{12, -7, 3, 0, -41})
	s.addList("a short output", []int64{4, 9})
	cases := []struct {
		body, want string
	}{
		{`{"log": "hidden: 12 -7 3 0 -41; 5 6 7 8 9"}`, "a hidden input"},
		{`{"log": "12, -7, 3, 0, -41"}`, "a hidden input"},
		{`{"log": "checked 12;-7;3;0;-41 ok"}`, "a hidden input"},
		{`{"log": "out [4, 9]"}`, "a short output"},
		{`{"log": "4 then 9"}`, ""},
		{`{"log": "12-7-3-0-41"}`, ""},
		{`{"log": "v12 -7 3 0 -41"}`, ""},
		{`{"log": "12 -7 3 0 -40"}`, ""},
	}
	for _, c := range cases {
		if got := s.find([]byte(c.body)); got != c.want {
			t.Errorf("find(%s) = %q, want %q", c.body, got, c.want)
		}
	}
}
