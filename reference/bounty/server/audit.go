package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agentgames/conformance/reference/audit"
)

// solveGrace is the policy's solve_grace_s: a waiter solves after it.
const solveGrace = 30 * time.Second

// maxContact is the contact policy's "Max 256 chars."
const maxContact = 256

// Auditor watches agents for the contract's rules for agents (serve
// --audit); each check cites the rule it audits. The bounty has no key:
// an agent is named by the agent_id its request carries (AgentOf), and
// requests naming none (registration, manifest and puzzle reads) are
// "anonymous".
//
// Three rules for agents are catalogued but not audited, since no request
// shows them broken: BOUNTY-AGENT-REGISTER-ONCE (a registration names no
// agent, so a second one cannot be told from a newcomer's),
// BOUNTY-AGENT-REFRESH (an agent may let its listing lapse on purpose;
// only its intent to stay listed makes a lapse a break) and
// BOUNTY-AGENT-DEFER (a combine names the coalition's members, not which
// of them sent it, so a deferring member's race cannot be attributed).
type Auditor struct {
	closed  map[string]map[string]bool // agent -> challenges it was answered 410 on
	listed  map[string]int             // agent -> its declared working_on (0: none), while listed
	waitAt  map[string]waitSeen        // agent -> the last next_move that told it to wait
	readCID map[string]bool            // challenges whose manifest or a puzzle someone read
}

// waitSeen is a wait answer: on which challenge, when.
type waitSeen struct {
	cid string
	at  time.Time
}

// NewAuditor returns an empty bounty audit.
func NewAuditor() audit.Watcher {
	return &Auditor{closed: map[string]map[string]bool{}, listed: map[string]int{}, waitAt: map[string]waitSeen{}, readCID: map[string]bool{}}
}

// AgentOf names the agent a request speaks for: agent_id in the body or
// the query, and for a combine its lowest submitting agent_id, the broker
// the policy elects to submit ("" for none).
func (a *Auditor) AgentOf(ex *audit.Exchange) string {
	if call, _, ok := viaMCP(ex); ok {
		ex = call
	}
	var body struct {
		AgentID     string `json:"agent_id"`
		Submissions []struct {
			AgentID string `json:"agent_id"`
		} `json:"submissions"`
	}
	if json.Unmarshal(ex.Body, &body) == nil && body.AgentID != "" {
		return body.AgentID
	}
	broker := ""
	for _, sub := range body.Submissions {
		if sub.AgentID != "" && (broker == "" || sub.AgentID < broker) {
			broker = sub.AgentID
		}
	}
	if broker != "" {
		return broker
	}
	q, _ := url.ParseQuery(ex.RawQuery)
	return q.Get("agent_id")
}

// combineRefusals are the combine answers that show a submission the
// contract's combine step rules out (BOUNTY-AGENT-COMBINE-K).
var combineRefusals = map[string]bool{"too_few_agents": true, "too_few_shares": true, "unearned_share": true}

// Watch checks one exchange; a tool call over MCP is checked as the HTTP
// request it stands for, and its findings name the call.
func (a *Auditor) Watch(ex *audit.Exchange) []audit.Finding {
	call, tool, ok := viaMCP(ex)
	if !ok {
		return a.watch(ex)
	}
	out := a.watch(call)
	for i := range out {
		out[i].Request, out[i].Status = ex.Request()+" (tools/call "+tool+")", call.Status
	}
	return out
}

// watch checks one HTTP exchange.
func (a *Auditor) watch(ex *audit.Exchange) []audit.Finding {
	var out []audit.Finding
	add := func(rule, detail string) {
		out = append(out, audit.Finding{Rule: rule, Request: ex.Request(), At: ex.At, Detail: detail})
	}
	// BOUNTY-AGENT-TRUST-ENDPOINTS: only the advertised endpoints, never a guessed path.
	if ex.Status == http.StatusNotFound && codeOf(ex.RespBody) == "not_found" {
		add("BOUNTY-AGENT-TRUST-ENDPOINTS", "a path the platform does not advertise")
	}
	named := ex.Key == "" && ex.Agent != "anonymous" && ex.Agent != ""
	cid, tail, ok := challengePath(ex.Path)
	if !ok {
		return out
	}
	// BOUNTY-AGENT-STALE-410: nothing more to a closed round but status and metrics reads.
	if named && roundBound(ex.Method, ex.Path, nil) && a.closed[ex.Agent][cid] {
		add("BOUNTY-AGENT-STALE-410", "another request to "+cid+" after it answered 410, instead of the active challenge_id")
	}
	if named && ex.Status == http.StatusGone {
		if a.closed[ex.Agent] == nil {
			a.closed[ex.Agent] = map[string]bool{}
		}
		a.closed[ex.Agent][cid] = true
	}
	switch {
	case ex.Method == http.MethodGet && (tail == "manifest" || strings.HasPrefix(tail, "puzzle/")) && ex.Status == http.StatusOK:
		a.readCID[cid] = true
	case ex.Method == http.MethodPost && tail == "solve" && named:
		a.watchSolve(ex, cid, add)
	case ex.Method == http.MethodPost && tail == "peers" && named:
		a.watchListing(ex, add)
	case ex.Method == http.MethodGet && tail == "next_move" && named && ex.Status == http.StatusOK:
		a.watchNextMove(ex, cid)
	case ex.Method == http.MethodPost && tail == "combine" && combineRefusals[codeOf(ex.RespBody)]:
		// BOUNTY-AGENT-COMBINE-K: >= k distinct agents' accepted solves of >= k shares.
		add("BOUNTY-AGENT-COMBINE-K", "a combine answered "+codeOf(ex.RespBody))
	}
	return out
}

// watchSolve checks a solve against what the agent read, declared and
// was told.
func (a *Auditor) watchSolve(ex *audit.Exchange, cid string, add func(rule, detail string)) {
	var body struct {
		ShareIndex int `json:"share_index"`
	}
	_ = json.Unmarshal(ex.Body, &body)
	// BOUNTY-AGENT-MANIFEST-FIRST: the manifest (or the puzzle) is read before solving.
	if !a.readCID[cid] {
		add("BOUNTY-AGENT-MANIFEST-FIRST", "a solve on "+cid+" before any read of its manifest or puzzles")
	}
	// BOUNTY-AGENT-CLAIM-BEFORE-GRIND: a listed agent declares the share it grinds.
	if claim, listed := a.listed[ex.Agent]; listed && claim != body.ShareIndex {
		add("BOUNTY-AGENT-CLAIM-BEFORE-GRIND", "a listed agent solved a share it had not declared in working_on")
	}
	// BOUNTY-AGENT-WAIT: told wait, no solve on that round within the solve grace.
	if w, ok := a.waitAt[ex.Agent]; ok && w.cid == cid && ex.At.Sub(w.at) < solveGrace {
		add("BOUNTY-AGENT-WAIT", "a solve "+ex.At.Sub(w.at).Round(time.Millisecond).String()+" after next_move said wait")
	}
	if claim, listed := a.listed[ex.Agent]; listed && ex.Status == http.StatusOK && claim == body.ShareIndex {
		a.listed[ex.Agent] = 0 // the accepted solve clears the claim
	}
}

// watchListing checks a POST peers and follows the agent's listing.
func (a *Auditor) watchListing(ex *audit.Exchange, add func(rule, detail string)) {
	var body map[string]json.RawMessage
	if json.Unmarshal(ex.Body, &body) != nil {
		return
	}
	var contact string
	_ = json.Unmarshal(body["contact"], &contact)
	// BOUNTY-AGENT-CONTACT: at most 256 characters.
	if len([]rune(contact)) > maxContact {
		add("BOUNTY-AGENT-CONTACT", "a contact of more than 256 characters")
	}
	if ex.Status != http.StatusOK {
		return
	}
	var remove bool
	_ = json.Unmarshal(body["remove"], &remove)
	if remove {
		delete(a.listed, ex.Agent)
		return
	}
	claim, had := a.listed[ex.Agent]
	if raw, ok := body["working_on"]; ok {
		claim = 0
		_ = json.Unmarshal(raw, &claim) // null clears
	} else if !had {
		claim = 0
	}
	a.listed[ex.Agent] = claim
}

// watchNextMove remembers a wait answer and forgets it on any other.
func (a *Auditor) watchNextMove(ex *audit.Exchange, cid string) {
	var body struct {
		NextMove struct {
			Move string `json:"move"`
		} `json:"next_move"`
	}
	_ = json.Unmarshal(ex.RespBody, &body)
	if body.NextMove.Move == "wait" {
		a.waitAt[ex.Agent] = waitSeen{cid: cid, at: ex.At}
		return
	}
	delete(a.waitAt, ex.Agent)
}

// challengePath splits /challenge/{cid}/{tail}.
func challengePath(path string) (cid, tail string, ok bool) {
	rest, ok := strings.CutPrefix(path, "/challenge/")
	if !ok {
		return "", "", false
	}
	cid, tail, _ = strings.Cut(rest, "/")
	return cid, tail, cid != ""
}

// codeOf reads the code of a refusal body.
func codeOf(body []byte) string {
	var r struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(body, &r)
	return r.Code
}
