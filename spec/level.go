package spec

// Level is how binding a rule is. MUST rules fail a target, SHOULD rules
// warn, REFERENCE rules are the kit's own choices where a contract is
// silent and only ever warn.
type Level string

// The rule levels.
const (
	Must      Level = "MUST"
	Should    Level = "SHOULD"
	Reference Level = "REFERENCE"
)
