package spec

import "testing"

func TestContainsTokenMatchesOnTokenBoundariesOnly(t *testing.T) {
	cases := []struct {
		s, quote string
		want     bool
	}{
		{"answers 409 on a conflict", "40", false},
		{"answers 409 on a conflict", "409", true},
		{"within 40 s", "40", true},
		{"(40)", "40", true},
		{"api_keys are secret", "api_key", false},
		{"the api_key, once", "api_key", true},
		{"a key; keys", "key", true},
		{"keys only", "key", false},
		{"x-rate 60/s", "60/s", true},
		{"160/s", "60/s", false},
		{"ends with: 60", ": 60", true},
		{"ends with: 600", ": 60", false},
		{"第1条の通り", "1条", true},
		{"", "", true},
		{"abc", "", true},
		{"40 and 409", "40", true},
		{"409 and 40", "40", true},
	}
	for _, c := range cases {
		if got := ContainsToken(c.s, c.quote); got != c.want {
			t.Errorf("ContainsToken(%q, %q) = %v, want %v", c.s, c.quote, got, c.want)
		}
	}
}

func TestQuoteFitsReadsNumbersAsTokens(t *testing.T) {
	if QuoteFits([]byte(`"refused with 409"`), "40") {
		t.Error(`"40" fits "refused with 409"`)
	}
	if !QuoteFits([]byte(`409`), "409") {
		t.Error(`"409" does not fit the number 409`)
	}
	if QuoteFits([]byte(`4096`), "409") {
		t.Error(`"409" fits the number 4096`)
	}
}
