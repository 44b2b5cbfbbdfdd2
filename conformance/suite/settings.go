package suite

import (
	"fmt"
	"strconv"
	"time"
)

// Flag is one of a protocol's own `conformance run` flags: a credential a
// live target needs (Pyyol's --secret), a permission (FORGE's
// --allow-authoring) or a wait the deployment may need longer. The CLI binds
// every registered protocol's flags and hands their values to the run in
// Config.Settings, so a protocol never keeps a flag in a package variable
// and runs started side by side (the kit's own tests) never see each
// other's values.
type Flag struct {
	// Name is the flag's name without dashes; names are unique across the
	// registered protocols (the contract test checks it).
	Name string
	// Usage is the help text; a backquoted word names the value, as in
	// package flag.
	Usage string
	// Kind says how the value is parsed: FlagString (the default),
	// FlagBool or FlagDuration. A value that does not parse is a usage
	// error before any request is sent.
	Kind FlagKind
	// Secret marks a credential: its value joins the run's redaction
	// secrets and appears in no output, report or log.
	Secret bool
}

// FlagKind is how a Flag's value is read.
type FlagKind int

// The kinds of Flag values.
const (
	FlagString FlagKind = iota
	FlagBool
	FlagDuration
)

// Check reports whether v is a valid value of f.
func (f Flag) Check(v string) error {
	switch f.Kind {
	case FlagBool:
		if _, err := strconv.ParseBool(v); err != nil {
			return fmt.Errorf("--%s takes true or false, not %q", f.Name, v)
		}
	case FlagDuration:
		if d, err := time.ParseDuration(v); err != nil || d <= 0 {
			return fmt.Errorf("--%s takes a positive duration such as 5s, not %q", f.Name, v)
		}
	}
	return nil
}

// Settings are the values a run's protocol flags were given, by flag name
// (Config.Settings, Env.Settings). A flag not given is absent.
type Settings map[string]string

// String returns the value of the flag name, or "".
func (s Settings) String(name string) string { return s[name] }

// Bool reports whether the boolean flag name was set true.
func (s Settings) Bool(name string) bool {
	on, _ := strconv.ParseBool(s[name])
	return on
}

// Duration returns the duration flag name, or def when it was not given
// (or, for a run started from Go, does not parse).
func (s Settings) Duration(name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(s[name]); err == nil && d > 0 {
		return d
	}
	return def
}

// With returns a copy of s with name set to value, for runs started from
// Go that add one setting to a protocol's ServeFlags.
func (s Settings) With(name, value string) Settings {
	out := make(Settings, len(s)+1)
	for k, v := range s {
		out[k] = v
	}
	out[name] = value
	return out
}

// ParseSettings reads args, a protocol's flags on a command line such as
// its ServeFlags ("--secret", "dev-secret"), into Settings: what the CLI
// would hand the run for them. An unknown flag, a missing or bad value is
// an error.
func ParseSettings(flags []Flag, args []string) (Settings, error) {
	byName := map[string]Flag{}
	for _, f := range flags {
		byName[f.Name] = f
	}
	out := Settings{}
	for i := 0; i < len(args); i++ {
		name, value, hasValue := cutFlag(args[i])
		f, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("%q is not a flag of the protocol", args[i])
		}
		if !hasValue && f.Kind == FlagBool {
			value, hasValue = "true", true
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("--%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if err := f.Check(value); err != nil {
			return nil, err
		}
		out[name] = value
	}
	return out, nil
}

// cutFlag splits "--name=value" or "-name" into its name and value.
func cutFlag(arg string) (name, value string, hasValue bool) {
	name = arg
	for range 2 {
		if len(name) > 0 && name[0] == '-' {
			name = name[1:]
		}
	}
	for i := range len(name) {
		if name[i] == '=' {
			return name[:i], name[i+1:], true
		}
	}
	return name, "", false
}

// secretSettings returns the values of the Secret flags of ps in s, for
// the run's redaction.
func secretSettings(ps []*Protocol, s Settings) []string {
	var out []string
	for _, p := range ps {
		for _, f := range p.Flags {
			if v := s[f.Name]; f.Secret && v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}
