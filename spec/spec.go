// Package spec holds the machine-readable contracts: per protocol an OpenAPI 3
// document (openapi.yaml) and a rule catalogue (rules.json). Both are embedded
// so the binary carries the contract it checks against.
package spec

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
)

//go:embed */rules.json */openapi.yaml */statements.json
var files embed.FS

// Rule is one catalogued rule: an ID that features tag and failures name, a
// level, and the quote from the source contract with its location there.
type Rule struct {
	ID    string `json:"id"`
	Level Level  `json:"level"`
	Title string `json:"title"`
	// Quote is the source contract's own words. For a REFERENCE rule it is the
	// nearest text the choice hangs on, and Choice says what the kit chose.
	Quote string `json:"quote"`
	// Path locates the quote in the seed: a JSON path such as
	// $.execution_contract.session_key.format.
	Path   string `json:"path"`
	Choice string `json:"choice,omitempty"`
	// Side is "agent" for a rule the contract sets for agents (never put the
	// key in a URL, honour Retry-After): the reference servers audit agents
	// against it (serve --audit) and the runner never checks it against a
	// platform. Empty means a platform rule.
	Side string `json:"side,omitempty"`
}

// AgentSide is the Side of a rule the contract sets for agents.
const AgentSide = "agent"

// ForAgents reports whether r is a rule for agents, not for platforms.
func (r Rule) ForAgents() bool { return r.Side == AgentSide }

// Catalogue is one protocol's rule list.
type Catalogue struct {
	Protocol string `json:"protocol"`
	Title    string `json:"title"`
	Seed     string `json:"seed"`
	// Source is the fixtures/ path of the verbatim copy of the seed, which
	// the reference serves and the catalogue's quotes are checked against.
	Source string `json:"source"`
	Rules  []Rule `json:"rules"`
}

// IDPattern is the shape of every rule ID: an upper-case protocol prefix and
// dash-separated upper-case words or numbers, usable verbatim as a Gherkin tag.
var IDPattern = regexp.MustCompile(`^[A-Z]+(-[A-Z0-9]+)+$`)

// Protocols lists the protocols that have a catalogue, sorted.
func Protocols() []string {
	dirs, _ := fs.Glob(files, "*/rules.json")
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		out = append(out, d[:len(d)-len("/rules.json")])
	}
	sort.Strings(out)
	return out
}

// Load reads and checks one protocol's catalogue.
func Load(protocol string) (*Catalogue, error) {
	raw, err := files.ReadFile(protocol + "/rules.json")
	if err != nil {
		return nil, fmt.Errorf("spec: no catalogue for protocol %q (have %v)", protocol, Protocols())
	}
	var c Catalogue
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("spec: %s/rules.json: %w", protocol, err)
	}
	return &c, c.Check()
}

// Check reports every malformed entry: bad or duplicate IDs, unknown levels,
// a missing quote or path, a REFERENCE rule without its choice.
func (c *Catalogue) Check() error {
	seen := map[string]bool{}
	for _, r := range c.Rules {
		if err := r.check(); err != nil {
			return fmt.Errorf("spec: %s: %w", c.Protocol, err)
		}
		if seen[r.ID] {
			return fmt.Errorf("spec: %s: duplicate rule ID %s", c.Protocol, r.ID)
		}
		seen[r.ID] = true
	}
	return nil
}

func (r Rule) check() error {
	switch {
	case !IDPattern.MatchString(r.ID):
		return fmt.Errorf("rule ID %q does not match %s", r.ID, IDPattern)
	case r.Level != Must && r.Level != Should && r.Level != Reference:
		return fmt.Errorf("rule %s: level %q is not MUST, SHOULD or REFERENCE", r.ID, r.Level)
	case r.Quote == "" || r.Path == "" || r.Title == "":
		return fmt.Errorf("rule %s: title, quote and path are required", r.ID)
	case r.Level == Reference && r.Choice == "":
		return fmt.Errorf("rule %s: a REFERENCE rule must say its choice", r.ID)
	case r.Side != "" && r.Side != AgentSide:
		return fmt.Errorf("rule %s: side %q is not %q (or empty for a platform rule)", r.ID, r.Side, AgentSide)
	}
	return nil
}

// Rule finds a rule by ID.
func (c *Catalogue) Rule(id string) (Rule, bool) {
	for _, r := range c.Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// LevelOf returns the level of rule id; unknown IDs count as MUST so that a
// typo in a step can never soften a failure into a warning.
func (c *Catalogue) LevelOf(id string) Level {
	if r, ok := c.Rule(id); ok {
		return r.Level
	}
	return Must
}

// OpenAPI returns the raw OpenAPI 3 document of a protocol.
func OpenAPI(protocol string) ([]byte, error) {
	return files.ReadFile(protocol + "/openapi.yaml")
}
