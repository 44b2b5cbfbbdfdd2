// Package manifest validates Pyyol agent manifests (manifest.md
// "Schema"): JSON or YAML, camelCase keys, and every field rule of the
// table. It is pure; the reference platform's publish flow uses it.
package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Manifest is the documented manifest, camelCase on the wire.
type Manifest struct {
	ManifestVersion string    `json:"manifestVersion" yaml:"manifestVersion"`
	Agent           Agent     `json:"agent" yaml:"agent"`
	Developer       Developer `json:"developer" yaml:"developer"`
	Games           []string  `json:"games" yaml:"games"`
	Endpoint        Endpoint  `json:"endpoint" yaml:"endpoint"`
	Runtime         Runtime   `json:"runtime" yaml:"runtime"`
	SDK             SDK       `json:"sdk" yaml:"sdk"`
	Contact         Contact   `json:"contact" yaml:"contact"`
	Model           *Model    `json:"model,omitempty" yaml:"model,omitempty"`
}

// Agent, Developer, Endpoint, Runtime, SDK, Contact and Model are the
// manifest's blocks.
type (
	Agent struct {
		Name        string `json:"name" yaml:"name"`
		Description string `json:"description" yaml:"description"`
		Version     string `json:"version" yaml:"version"`
		Visibility  string `json:"visibility" yaml:"visibility"`
	}
	Developer struct {
		Name         string `json:"name" yaml:"name"`
		Organization string `json:"organization" yaml:"organization"`
	}
	Endpoint struct {
		URL            string `json:"url" yaml:"url"`
		Authentication string `json:"authentication" yaml:"authentication"`
	}
	Runtime struct {
		Timeout   any `json:"timeout" yaml:"timeout"`
		MaxMemory any `json:"maxMemory" yaml:"maxMemory"`
	}
	SDK struct {
		Language string `json:"language" yaml:"language"`
		Version  string `json:"version" yaml:"version"`
	}
	Contact struct {
		Email string `json:"email" yaml:"email"`
	}
	Model struct {
		Provider  string `json:"provider" yaml:"provider"`
		Model     string `json:"model" yaml:"model"`
		Reasoning bool   `json:"reasoning" yaml:"reasoning"`
	}
)

// FieldError is one broken field rule: the field's path and why.
type FieldError struct {
	Field  string `json:"field"`
	Reason string `json:"reason"`
}

func (e FieldError) Error() string { return e.Field + ": " + e.Reason }

// Options says where the manifest is checked: Dev allows an http endpoint
// ("http allowed only in dev").
type Options struct{ Dev bool }

// Parse reads a manifest as JSON or, failing that, YAML ("JSON (YAML also
// accepted)"), and refuses keys that are not camelCase.
func Parse(raw []byte) (*Manifest, []FieldError) {
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		// PYYOL-MANIFEST-FORMAT: YAML is accepted too.
		if yerr := yaml.Unmarshal(raw, &generic); yerr != nil {
			return nil, []FieldError{{Field: "", Reason: "neither JSON nor YAML"}}
		}
		if raw, err = json.Marshal(normalize(generic)); err != nil {
			return nil, []FieldError{{Field: "", Reason: "YAML that has no JSON form"}}
		}
		generic = nil
		json.Unmarshal(raw, &generic)
	}
	obj, ok := generic.(map[string]any)
	if !ok {
		return nil, []FieldError{{Field: "", Reason: "a manifest is an object"}}
	}
	// PYYOL-MANIFEST-CAMELCASE: "All keys are camelCase".
	if bad := nonCamelKeys("", obj); len(bad) > 0 {
		return nil, bad
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, []FieldError{{Field: "", Reason: "a field has the wrong type: " + err.Error()}}
	}
	return &m, nil
}

// normalize turns YAML's map[any]any into JSON-ready maps.
func normalize(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = normalize(x)
		}
		return t
	case map[any]any:
		out := map[string]any{}
		for k, x := range t {
			out[fmt.Sprint(k)] = normalize(x)
		}
		return out
	case []any:
		for i, x := range t {
			t[i] = normalize(x)
		}
	}
	return v
}

var camel = regexp.MustCompile(`^[a-z][a-zA-Z0-9]*$`)

func nonCamelKeys(prefix string, obj map[string]any) []FieldError {
	var out []FieldError
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !camel.MatchString(k) {
			out = append(out, FieldError{Field: prefix + k, Reason: "keys are camelCase"})
		}
		if sub, ok := obj[k].(map[string]any); ok {
			out = append(out, nonCamelKeys(prefix+k+".", sub)...)
		}
	}
	return out
}

var (
	agentName = regexp.MustCompile(`^[A-Za-z0-9_-]{3,32}$`)
	semver    = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$`)
)

// Validate checks every field rule of the table and returns the broken
// ones, in the table's order.
func Validate(m *Manifest, opts Options) []FieldError {
	var errs []FieldError
	add := func(ok bool, field, reason string) {
		if !ok {
			errs = append(errs, FieldError{Field: field, Reason: reason})
		}
	}
	// PYYOL-MANIFEST-VERSION
	add(m.ManifestVersion == "1.0", "manifestVersion", `must be "1.0"`)
	// PYYOL-MANIFEST-AGENT-NAME
	add(agentName.MatchString(m.Agent.Name), "agent.name", "3-32 chars: letters, digits, _, -")
	// PYYOL-MANIFEST-AGENT-VERSION
	add(semver.MatchString(m.Agent.Version), "agent.version", "semver MAJOR.MINOR.PATCH")
	// PYYOL-MANIFEST-VISIBILITY
	add(m.Agent.Visibility == "public" || m.Agent.Visibility == "private", "agent.visibility", "public or private")
	// PYYOL-MANIFEST-DEVELOPER
	add(strings.TrimSpace(m.Developer.Name) != "", "developer.name", "required")
	// PYYOL-MANIFEST-GAMES
	add(validGames(m.Games), "games", "at least one of goofspiel, monopoly, mafia")
	// PYYOL-MANIFEST-ENDPOINT-URL
	add(validEndpoint(m.Endpoint.URL, opts.Dev), "endpoint.url", "absolute https URL of the /turn handler (http only in dev)")
	// PYYOL-MANIFEST-AUTHENTICATION
	add(m.Endpoint.Authentication == "bearer-token", "endpoint.authentication", "bearer-token")
	// PYYOL-MANIFEST-TIMEOUT
	add(positiveInt(m.Runtime.Timeout), "runtime.timeout", "positive milliseconds")
	// PYYOL-MANIFEST-MAX-MEMORY
	_, isString := m.Runtime.MaxMemory.(string)
	add(isString, "runtime.maxMemory", `a string, e.g. "256Mi"`)
	// PYYOL-MANIFEST-SDK-LANGUAGE
	add(m.SDK.Language != "", "sdk.language", "required (python / js)")
	// PYYOL-MANIFEST-EMAIL
	add(validEmail(m.Contact.Email), "contact.email", "valid email")
	// PYYOL-MANIFEST-MODEL
	add(m.Model == nil || (m.Model.Provider != "" && m.Model.Model != ""), "model", "if present, provider and model are required")
	return errs
}

func validGames(games []string) bool {
	if len(games) == 0 {
		return false
	}
	for _, g := range games {
		if !slices.Contains([]string{"goofspiel", "monopoly", "mafia"}, g) {
			return false
		}
	}
	return true
}

func validEndpoint(raw string, dev bool) bool {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return false
	}
	return u.Scheme == "https" || (dev && u.Scheme == "http")
}

// positiveInt accepts a JSON number that is a positive integer.
func positiveInt(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	i, err := n.Int64()
	return err == nil && i > 0
}

func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && strings.Contains(s[strings.LastIndex(s, "@"):], ".")
}
