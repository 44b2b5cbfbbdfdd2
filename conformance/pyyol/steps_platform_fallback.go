package pyyol

import "github.com/agentgames/conformance/conformance/suite"

// fallbackWords maps the feature's words to the kit's turn plans.
var fallbackWords = map[string]string{"late": turnLate, "illegally": turnIllegal, "with an error": turnError,
	"not at all": turnDropped, "with a redirect": turnRedirect, "with an endless body": turnEndless, "never": turnHung}

// platformFallbackSteps registers the steps of features/pyyol/platform-fallback.feature.
func (p *pfRun) platformFallbackSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the turn the kit answered (late|illegally|with an error|not at all|with a redirect|with an endless body|never) fell back to the lowest card and the match went on$`),
		func(how string) error {
			return p.judge(func(s *platSession) error { return s.judgeFallback(fallbackWords[how]) })()
		})
	sc.Step(pattern(`^the turn the kit answered inside runtime.timeout took the kit's card$`), p.judge((*platSession).judgeInBudget))
}
