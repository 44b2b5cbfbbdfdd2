package forge

// documents are the public documents and the rule each stands for.
var documents = []struct{ path, rule string }{
	{"/spec/puzzle.schema.json", "FORGE-DOC-SCHEMA"},
	{"/docs/agent-quickstart", "FORGE-DOC-QUICKSTART"},
	{"/spec/dsl.md", "FORGE-DOC-DSL"},
	{"/openapi.json", "FORGE-DOC-OPENAPI"},
}

// kitDSLMarker identifies the kit's dsl.md: a deployment serving another
// DSL gets no DSL differential checks (FORGE-REF-DSL).
const kitDSLMarker = "FORGE-REF-DSL"
