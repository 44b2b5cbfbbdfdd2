package manifest

// Example is the manifest of manifest.md "Schema", with the endpoint the
// caller names: a valid manifest the kit's checks start from.
func Example(endpointURL string) map[string]any {
	return map[string]any{
		"manifestVersion": "1.0",
		"agent":           map[string]any{"name": "my-agent", "description": "A push-protocol agent.", "version": "0.1.0", "visibility": "private"},
		"developer":       map[string]any{"name": "you", "organization": ""},
		"games":           []any{"goofspiel"},
		"endpoint":        map[string]any{"url": endpointURL, "authentication": "bearer-token"},
		"runtime":         map[string]any{"timeout": 5000, "maxMemory": "256Mi"},
		"sdk":             map[string]any{"language": "python", "version": "0.1.0"},
		"contact":         map[string]any{"email": "you@example.com"},
		"model":           map[string]any{"provider": "anthropic", "model": "claude-…", "reasoning": true},
	}
}

// Breakage is one way to break one field rule of the table.
type Breakage struct {
	Field string
	Edit  func(m map[string]any)
}

func block(m map[string]any, key string) map[string]any { return m[key].(map[string]any) }

// Breakages lists, for every field rule, a manifest edit that breaks it.
func Breakages() []Breakage {
	return []Breakage{
		{"manifestVersion", func(m map[string]any) { m["manifestVersion"] = "2.0" }},
		{"agent.name", func(m map[string]any) { block(m, "agent")["name"] = "a!" }},
		{"agent.version", func(m map[string]any) { block(m, "agent")["version"] = "1.0" }},
		{"agent.visibility", func(m map[string]any) { block(m, "agent")["visibility"] = "unlisted" }},
		{"developer.name", func(m map[string]any) { block(m, "developer")["name"] = "" }},
		{"games", func(m map[string]any) { m["games"] = []any{} }},
		{"endpoint.url", func(m map[string]any) { block(m, "endpoint")["url"] = "/turn" }},
		{"endpoint.authentication", func(m map[string]any) { block(m, "endpoint")["authentication"] = "none" }},
		{"runtime.timeout", func(m map[string]any) { block(m, "runtime")["timeout"] = 0 }},
		{"runtime.maxMemory", func(m map[string]any) { block(m, "runtime")["maxMemory"] = 256 }},
		{"sdk.language", func(m map[string]any) { delete(block(m, "sdk"), "language") }},
		{"contact.email", func(m map[string]any) { block(m, "contact")["email"] = "not-an-email" }},
		{"model", func(m map[string]any) { delete(block(m, "model"), "provider") }},
		{"camelCase", func(m map[string]any) { m["manifest_version"] = m["manifestVersion"]; delete(m, "manifestVersion") }},
	}
}
