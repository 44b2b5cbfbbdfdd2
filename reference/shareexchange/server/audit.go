package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/agentgames/conformance/reference/audit"
)

// Auditor watches agents for the convention's rules for agents (serve
// --audit); each check cites the rule it audits. An exchange speaks for
// its requester (a pull) or its offerer (an offer); a call to the platform
// served beside the responder speaks for the agent_id it carries. The
// platform's listings tell the audit each agent's contact.
//
// SX-AGENT-PREFER-PULL is catalogued but not audited: which share a
// collector keeps, pulled or offered, happens inside the collector and
// shows in no request to the responder.
type Auditor struct {
	contacts map[string]string          // agent -> its listed contact
	stale    map[string]map[string]bool // agent -> challenges it was answered stale_round on
}

// NewAuditor returns an empty share-exchange audit.
func NewAuditor() audit.Watcher {
	return &Auditor{contacts: map[string]string{}, stale: map[string]map[string]bool{}}
}

// exchangeBody is what the audit reads of a pull or an offer.
type exchangeBody struct {
	Kind        string `json:"kind"`
	ChallengeID string `json:"challenge_id"`
	Requester   string `json:"requester"`
	AgentID     string `json:"agent_id"`
}

// AgentOf names the agent a request speaks for.
func (a *Auditor) AgentOf(ex *audit.Exchange) string {
	var b exchangeBody
	_ = json.Unmarshal(ex.Body, &b)
	if ex.Path == "/" && b.Kind != "offer" {
		return b.Requester
	}
	if b.AgentID != "" {
		return b.AgentID
	}
	q, _ := url.ParseQuery(ex.RawQuery)
	return q.Get("agent_id")
}

// pullRules and offerRules map a refusal's code to the rule for agents
// the refused agent broke.
var (
	pullRules = map[string]string{
		"requester_unlisted":   "SX-AGENT-REQUESTER-LISTED",
		"not_broker":           "SX-AGENT-PULL-WHEN-TOLD",
		"board_not_combinable": "SX-AGENT-PULL-WHEN-TOLD",
		"requester_is_holder":  "SX-AGENT-WELL-FORMED",
		"bad_request":          "SX-AGENT-WELL-FORMED",
	}
	offerRules = map[string]string{
		"offerer_unlisted":     "SX-AGENT-OFFERER-HOLDS",
		"offerer_not_holder":   "SX-AGENT-OFFERER-HOLDS",
		"duplicate":            "SX-AGENT-OFFER-ONCE",
		"board_not_combinable": "SX-AGENT-OFFER-TARGET",
		"not_recipient":        "SX-AGENT-OFFER-TARGET",
		"offerer_is_recipient": "SX-AGENT-OFFER-TARGET",
		"bad_request":          "SX-AGENT-WELL-FORMED",
	}
)

// Watch checks one exchange.
func (a *Auditor) Watch(ex *audit.Exchange) []audit.Finding {
	var out []audit.Finding
	add := func(rule, detail string) {
		out = append(out, audit.Finding{Rule: rule, Request: ex.Request(), At: ex.At, Detail: detail})
	}
	switch {
	case ex.Method == http.MethodPost && strings.HasPrefix(ex.Path, PlatformPath+"/challenge/") && strings.HasSuffix(ex.Path, "/peers"):
		a.followListing(ex)
	case ex.Method == http.MethodPost && ex.Path == "/":
		a.watchExchange(ex, add)
	}
	return out
}

// watchExchange checks a pull or an offer by its answer.
func (a *Auditor) watchExchange(ex *audit.Exchange, add func(rule, detail string)) {
	var b exchangeBody
	_ = json.Unmarshal(ex.Body, &b)
	agent, code := ex.Agent, codeOf(ex.RespBody)
	// SX-AGENT-LIVE-ROUND: told stale_round, read the live round before another exchange.
	if a.stale[agent][b.ChallengeID] && b.ChallengeID != "" {
		add("SX-AGENT-LIVE-ROUND", "another exchange naming "+b.ChallengeID+" after it was answered stale_round")
	}
	if code == "stale_round" && agent != "" {
		if a.stale[agent] == nil {
			a.stale[agent] = map[string]bool{}
		}
		a.stale[agent][b.ChallengeID] = true
	}
	rules := pullRules
	if b.Kind == "offer" {
		rules = offerRules
		// SX-AGENT-HTTP-NO-OFFER: a holder with an http(s) contact is collected from.
		if c := a.contacts[agent]; strings.HasPrefix(c, "http://") || strings.HasPrefix(c, "https://") {
			add("SX-AGENT-HTTP-NO-OFFER", "an offer from a holder whose listed contact is an http(s) URL")
		}
	}
	if rule, ok := rules[code]; ok {
		add(rule, "answered "+code)
	}
}

// followListing keeps each agent's listed contact.
func (a *Auditor) followListing(ex *audit.Exchange) {
	if ex.Status != http.StatusOK {
		return
	}
	var b struct {
		AgentID string `json:"agent_id"`
		Contact string `json:"contact"`
		Remove  bool   `json:"remove"`
	}
	if json.Unmarshal(ex.Body, &b) != nil || b.AgentID == "" {
		return
	}
	if b.Remove {
		delete(a.contacts, b.AgentID)
		return
	}
	a.contacts[b.AgentID] = b.Contact
}

// codeOf reads the code of an answer body.
func codeOf(body []byte) string {
	var r struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(body, &r)
	return r.Code
}
