package suite

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
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
	// RequiredLive marks a flag a run with --target cannot go without (the
	// endpoint secret of pyyol-push): its absence is a usage error before
	// any request is sent, not a harness error in every check.
	RequiredLive bool
	// Rules are the catalogue rules whose quoted figures the flag's
	// default stands on ("within ~10s" behind a 12 s default): when a new
	// contract changes them, spec diff names the flag beside the rule.
	Rules []string
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

// Bind binds flags on fs, recording each value given into s after
// checking it (Check): the CLI binds every registered protocol's flags this
// way, and ParseSettings reads a protocol's ServeFlags with it.
func (s Settings) Bind(fs *flag.FlagSet, flags []Flag) {
	for _, f := range flags {
		set := func(v string) error {
			if err := f.Check(v); err != nil {
				return errors.New(strings.TrimPrefix(err.Error(), "--"+f.Name+" "))
			}
			s[f.Name] = v
			return nil
		}
		if f.Kind == FlagBool {
			fs.BoolFunc(f.Name, f.Usage, set)
		} else {
			fs.Func(f.Name, f.Usage, set)
		}
	}
}

// ParseSettings reads args, a protocol's flags on a command line such as
// its ServeFlags ("--secret", "dev-secret"), into Settings: what the CLI
// would hand the run for them. An unknown flag, a missing or bad value or
// a stray argument is an error.
func ParseSettings(flags []Flag, args []string) (Settings, error) {
	out := Settings{}
	fs := flag.NewFlagSet("protocol flags", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out.Bind(fs, flags)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%q is not a flag", fs.Arg(0))
	}
	return out, nil
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
