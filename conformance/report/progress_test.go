package report

import "github.com/agentgames/conformance/conformance/verdict"

// progress mirrors suite.Progress, the sink suite.Run reports to. It is
// copied rather than imported because package suite pulls in every
// protocol's embedded features, which must not make this package's tests
// depend on other folders being complete.
type progress interface {
	Start(protocol string, total int)
	Begin(protocol, feature, name string)
	Done(r verdict.Result)
}

// The console must stay usable as the CLI's progress sink.
var _ progress = (*Console)(nil)
