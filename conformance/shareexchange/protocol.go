// Package shareexchange checks an agent's abp-share-exchange/1 responder
// (`--protocol share-exchange --target URL`): the runner plays the board on
// the platform the responder reads, and the peers, and checks the release
// rule and every refusal code of PULL and OFFER.
package shareexchange

import (
	"net/http"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	sxserver "github.com/agentgames/conformance/reference/shareexchange/server"
)

// Protocol describes the share-exchange convention to the runner.
func Protocol() *suite.Protocol {
	return &suite.Protocol{
		Name:       "share-exchange",
		Title:      "abp-share-exchange/1",
		Folder:     "share-exchange",
		Package:    "shareexchange",
		RulePrefix: "SX",
		BasePath:   sxserver.BasePath,
		// The convention documents only POSTs to an agent's contact (its GET
		// discovery is the kit's REFERENCE choice, SX-CONTROL), so the
		// preflight only asks that the responder answers at all.
		Preflight:          "/",
		PreflightReachOnly: true,
		Flags:              []suite.Flag{allowPrivateFlag},
		Reference:          func(cfg suite.ReferenceConfig) http.Handler { return sxserver.New(cfg) },
		Steps:              Steps,
		Properties:         []suite.Property{pullProperty()},
		Vector:             Vector,
	}
}

func secondsDuration(n int) time.Duration { return time.Duration(n) * time.Second }
