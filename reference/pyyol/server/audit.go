package server

import (
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/agentgames/conformance/reference/audit"
)

// NewAuditor is the gateway's HTTP watcher for serve --audit. The docs
// state no rule for an agent's HTTP requests to the gateway; what they ask
// of agents happens on the socket, which the gateway audits frame by frame
// (frameAudit) and reports through audit.FramesFrom.
func NewAuditor() audit.Watcher { return httpWatcher{} }

type httpWatcher struct{}

func (httpWatcher) Watch(*audit.Exchange) []audit.Finding { return nil }

// DefaultHeartbeatGap is how long a registered socket may go without the
// agent's ping before the audit names PYYOL-AGENT-HEARTBEAT, unless
// Options.HeartbeatGap says otherwise: "every few seconds" is the docs'
// word; 15 s leaves room for the official SDK's 10 s heartbeat
// (runtime.py's heartbeat_interval).
const DefaultHeartbeatGap = 15 * time.Second

// agentAudit is what the audit remembers of one agent across its sockets:
// the turns and initializes it was sent, by id, and which it answered.
type agentAudit struct {
	mu       sync.Mutex
	asked    map[string][]byte // id -> the frame as sent
	answered map[string]bool
	injected map[string]bool // turns a --faults late turn settled
	past     map[string]bool // ids of finished matches' frames
	drops    int             // sockets the gateway dropped with a match running
	back     int             // drops the agent came back from (re-registered)
	report   *audit.Frames
}

// frameAudit audits one socket's frames.
type frameAudit struct {
	rep        *audit.Frames
	now        func() time.Time
	name       string // audit.AgentName of the key, "anonymous" before register
	agent      *agentAudit
	registered time.Time
	lastPing   time.Time
	gap        time.Duration // PYYOL-AGENT-HEARTBEAT: the longest silence allowed
	quiet      bool          // PYYOL-AGENT-HEARTBEAT already named on this socket
	// early are the frames read before register (nil: no finding) and
	// their findings, reported under the agent's name once it registers.
	early [][]audit.Finding
}

// newFrameAudit starts auditing a socket whose agent may stay silent for
// gap between pings, or returns nil when agents are not audited.
func newFrameAudit(rep *audit.Frames, gap time.Duration) *frameAudit {
	if rep == nil {
		return nil
	}
	return &frameAudit{rep: rep, now: rep.Now(), name: audit.AgentName(""), gap: gap}
}

// finding dates one broken rule at frame.
func (fa *frameAudit) finding(rule, frame, detail string) audit.Finding {
	return audit.Finding{Rule: rule, Request: "frame " + frame, At: fa.now(), Detail: detail}
}

// auditOf returns the audit state of agentID, made on first use.
func (g *Gateway) auditOf(agentID string, rep *audit.Frames) *agentAudit {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.audits == nil {
		g.audits = map[string]*agentAudit{}
	}
	a := g.audits[agentID]
	if a == nil {
		a = &agentAudit{asked: map[string][]byte{}, answered: map[string]bool{}, injected: map[string]bool{}, past: map[string]bool{}}
		g.audits[agentID] = a
	}
	a.report = rep
	return a
}

// beforeRegister audits a frame read before the agent registered.
func (l *link) beforeRegister(f Frame) {
	fa := l.audit
	if fa == nil {
		return
	}
	var found []audit.Finding
	if f.T != "register" && f.T != "ping" && f.T != "pong" {
		// PYYOL-AGENT-REGISTER: "The SDK replies with `register`".
		found = append(found, fa.finding("PYYOL-AGENT-REGISTER", f.T, "a "+f.T+" frame before register"))
	}
	fa.early = append(fa.early, found)
}

// reportEarly reports the frames read before register under the name the
// socket has now: the agent's, or anonymous if it never registered.
func (fa *frameAudit) reportEarly() {
	for _, found := range fa.early {
		fa.rep.Report(fa.name, found...)
	}
	fa.early = nil
}

// registeredAs names the socket's agent once its key resolved, and checks
// the key is not an endpoint secret.
func (l *link) registeredAs(reg Frame) {
	fa := l.audit
	if fa == nil {
		return
	}
	fa.name, fa.agent = audit.AgentName(reg.Token), l.g.auditOf(l.agentID, fa.rep)
	fa.registered, fa.lastPing = fa.now(), fa.now()
	fa.reportEarly()
	var found []audit.Finding
	if l.g.isEndpointSecret(reg.Token) {
		// PYYOL-AGENT-KEY-NOT-SECRET: "It is **not** the manifest endpoint secret".
		found = append(found, fa.finding("PYYOL-AGENT-KEY-NOT-SECRET", "register", "the register token is a manifest's endpoint secret"))
	}
	fa.rep.Report(fa.name, found...)
}

// isEndpointSecret reports whether token is the endpoint secret stored for
// some manifest.
func (g *Gateway) isEndpointSecret(token string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, p := range g.manifests {
		if p.secret != "" && p.secret == token {
			return true
		}
	}
	return false
}

// watchSent remembers a turn or initialize sent to the agent, for the
// checks of its response.
func (l *link) watchSent(frame any, data []byte) {
	fa := l.audit
	if fa == nil || fa.agent == nil {
		return
	}
	var head struct {
		T  string `json:"t"`
		ID string `json:"id"`
	}
	if json.Unmarshal(data, &head) != nil || head.ID == "" || (head.T != "turn" && head.T != "initialize") {
		return
	}
	fa.agent.mu.Lock()
	fa.agent.asked[head.ID] = data
	fa.agent.mu.Unlock()
}

// watchFrame audits one frame of a registered agent.
func (l *link) watchFrame(f Frame) {
	fa := l.audit
	if fa == nil || fa.agent == nil {
		return
	}
	found := fa.heartbeat()
	switch f.T {
	case "ping":
		fa.lastPing = fa.now()
	case "response":
		found = append(found, fa.response(f, l.timedOut(f.ID))...)
	}
	fa.rep.Report(fa.name, found...)
}

// socketEnded names a socket that stayed silent too long, when it closes.
func (l *link) socketEnded() {
	if fa := l.audit; fa != nil {
		fa.reportEarly()
	}
	if fa := l.audit; fa != nil && fa.agent != nil {
		if found := fa.heartbeat(); len(found) > 0 {
			fa.rep.Report(fa.name, found...)
		}
	}
}

// heartbeat names, once per socket, an agent that has not pinged for
// longer than the socket's gap.
func (fa *frameAudit) heartbeat() []audit.Finding {
	if fa.quiet || fa.now().Sub(fa.lastPing) <= fa.gap {
		return nil
	}
	fa.quiet = true
	// PYYOL-AGENT-HEARTBEAT: "The SDK sends a `ping` every few seconds".
	return []audit.Finding{fa.finding("PYYOL-AGENT-HEARTBEAT", "ping", "no ping from the agent for "+
		fa.now().Sub(fa.lastPing).Round(time.Millisecond).String()+" (the audit allows "+fa.gap.String()+")")}
}

// timedOut reports whether the turn id was settled by the gateway's own
// timeout (not by an injected fault, nor by its socket closing).
func (l *link) timedOut(id string) bool {
	if l.audit.agent.isInjected(id) {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.timeouts[id]
}

// markTimedOut records that the gateway's timeout settled the turn id, for
// PYYOL-AGENT-ON-TIME; only with --audit.
func (l *link) markTimedOut(id string) {
	if l.audit == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.timeouts == nil {
		l.timeouts = map[string]bool{}
	}
	l.timeouts[id] = true
}

func (a *agentAudit) isInjected(id string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.injected[id]
}

// markInjected records that a --faults late turn settled id, so a late
// answer to it is not the agent's fault.
func (l *link) markInjected(id string) {
	if fa := l.audit; fa != nil && fa.agent != nil {
		fa.agent.mu.Lock()
		fa.agent.injected[id] = true
		fa.agent.mu.Unlock()
	}
}

// markDropped records that the gateway dropped the agent's socket with a
// match running; the agent must come back (PYYOL-AGENT-RECONNECT).
func (l *link) markDropped() {
	if fa := l.audit; fa != nil && fa.agent != nil {
		fa.agent.mu.Lock()
		fa.agent.drops++
		fa.agent.mu.Unlock()
	}
}

// cameBack clears the drop mark when the agent registers again.
func (g *Gateway) cameBack(agentID string) {
	g.mu.Lock()
	a := g.audits[agentID]
	g.mu.Unlock()
	if a != nil {
		a.mu.Lock()
		a.back = a.drops
		a.mu.Unlock()
	}
}

// DefaultReconnectGrace is how long after its match ended an agent whose
// socket dropped may take to come back before the audit names it
// (PYYOL-AGENT-RECONNECT), unless Options.ReconnectGrace says otherwise:
// the docs fix no backoff schedule, so the audit allows one generous step.
const DefaultReconnectGrace = 5 * time.Second

// matchEnded forgets the frames of a finished match (their ids stay
// known, so a straggling answer is not blamed on PYYOL-AGENT-RESPONSE-ID)
// and names an agent that, its socket dropped by the gateway during the
// match, has not come back within the reconnect grace of its end.
func (g *Gateway) matchEnded(agentID, matchID string) {
	g.mu.Lock()
	a := g.audits[agentID]
	g.mu.Unlock()
	if a == nil {
		return
	}
	a.mu.Lock()
	away, drops, rep := a.back < a.drops, a.drops, a.report
	for id := range a.asked {
		if strings.Contains(id, matchID) {
			delete(a.asked, id)
			a.past[id] = true
		}
	}
	a.mu.Unlock()
	if !away {
		return
	}
	grace := g.opts.ReconnectGrace
	time.AfterFunc(grace, func() {
		a.mu.Lock()
		stayed := a.back < drops
		a.mu.Unlock()
		if stayed {
			// PYYOL-AGENT-RECONNECT: "If the socket drops, the SDK **reconnects
			// automatically** with exponential backoff and re-registers".
			rep.Report(audit.AgentName(g.tokenOf(agentID)), audit.Finding{Rule: "PYYOL-AGENT-RECONNECT", Request: "frame game_end " + matchID,
				At: rep.Now()(), Detail: "the agent had not come back " + grace.String() + " after its match ended, its socket dropped during it"})
		}
	})
}

// tokenOf returns the key agentID registered with, to name it in the audit.
func (g *Gateway) tokenOf(agentID string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	for token, id := range g.keys {
		if id == agentID {
			return token
		}
	}
	return ""
}
