package phantompress

import (
	"regexp"

	"github.com/agentgames/conformance/conformance/suite"
)

// pattern returns a step pattern compiled once per process (suite.Pattern),
// not once per scenario as a plain string given to sc.Step would be.
func pattern(expr string) *regexp.Regexp { return suite.Pattern(expr) }
