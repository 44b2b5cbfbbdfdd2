package spec

import (
	"encoding/json"
	"fmt"
)

// Statements is a folder's statements.json: every normative statement of
// the seed, the rules that check it and, where one stays unchecked, why.
// It is the audit a spec author keeps next to the catalogue; the
// statements command measures it against a run's report.
type Statements struct {
	Protocol string `json:"protocol"`
	Note     string `json:"note"`
	// Documents are the audited documents of a markdown seed; every
	// heading of each is a statement, listed in order.
	Documents []string `json:"documents,omitempty"`
	// Outside are catalogued REFERENCE rules no statement of the seed
	// states: the kit's choices where the seed is silent.
	Outside    []string    `json:"outside"`
	Statements []Statement `json:"statements"`
}

// Statement is one statement of a seed (spec/statements_test.go holds the
// format): where it stands, its words, the rules that check it, why it
// stays unchecked, and its audited risk and side.
type Statement struct {
	ID        string   `json:"id,omitempty"`
	Path      string   `json:"path"`
	Quote     string   `json:"quote,omitempty"`
	Requires  string   `json:"requires,omitempty"`
	Rules     []string `json:"rules"`
	Unchecked string   `json:"unchecked,omitempty"`
	// Risk is how much a deployment that broke the statement would hurt
	// its users: high, medium, low or none (informational). Side says whose
	// duty it is: platform (what a deployment must do, checkable against
	// it), agent (what a client must do) or doc (prose, examples, links).
	// Both are optional, but a statement audited for risk names its side.
	Risk string `json:"risk,omitempty"`
	Side string `json:"side,omitempty"`
}

// Key names the statement: its id, or its path where it has none.
func (s Statement) Key() string {
	if s.ID != "" {
		return s.ID
	}
	return s.Path
}

// Risky reports whether s is a high- or medium-risk platform duty, the
// statements a live run must reach (issue 25's 95 % bar).
func (s Statement) Risky() bool {
	return s.Side == "platform" && (s.Risk == "high" || s.Risk == "medium")
}

// LoadStatements reads a folder's statements.json.
func LoadStatements(folder string) (*Statements, error) {
	raw, err := files.ReadFile(folder + "/statements.json")
	if err != nil {
		return nil, fmt.Errorf("spec: no statements for %q (have %v)", folder, Protocols())
	}
	var s Statements
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("spec: %s/statements.json: %w", folder, err)
	}
	return &s, nil
}
