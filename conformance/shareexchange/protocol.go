// Package shareexchange checks an agent's abp-share-exchange/1 responder
// (`--protocol share-exchange --target URL`): the runner plays the board on
// the platform the responder reads, and the peers, and checks the release
// rule and every refusal code of PULL and OFFER.
package shareexchange

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	rsx "github.com/agentgames/conformance/reference/shareexchange"
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
		// preflight is a PULL in another protocol's name, which every
		// responder refuses in the convention's shape (bad_request).
		Probe:      probe,
		Flags:      []suite.Flag{allowPrivateFlag},
		Reference:  func(cfg suite.ReferenceConfig) http.Handler { return sxserver.New(cfg) },
		Steps:      Steps,
		Properties: []suite.Property{pullProperty()},
		Vector:     Vector,
	}
}

// probe tells an abp-share-exchange/1 responder from anything else: a
// request for another protocol version is bad_request ("malformed body or
// wrong protocol"), it releases and accepts nothing, and every answer of
// the convention, released or refused, PULL or OFFER, is a JSON object
// carrying ok and the protocol. An answer with either is a responder's
// (a wrong one is for the checks to judge).
var probe = &suite.Probe{Method: http.MethodPost, Path: "",
	JSON: map[string]any{"protocol": "abp-share-exchange/preflight", "agent_id": "", "share_index": 0},
	Speaks: func(_ int, body []byte) bool {
		var doc map[string]any
		if json.Unmarshal(body, &doc) != nil {
			return false
		}
		_, hasOK := doc["ok"].(bool)
		return hasOK || doc["protocol"] == rsx.Protocol
	}}

func secondsDuration(n int) time.Duration { return time.Duration(n) * time.Second }
