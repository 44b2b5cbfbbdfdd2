package bounty

import (
	"bytes"
	"encoding/json"
	"sort"
	"time"
)

// MaxContact is the contact policy's length limit (BOUNTY-CONTACT).
const MaxContact = 256

// ListRequest is a POST peers body. WorkingOn is nil when absent (keep),
// and Clear is set when the body carries working_on: null (clear).
type ListRequest struct {
	AgentID   string
	Contact   string
	Message   string
	WorkingOn *int
	Clear     bool
	Remove    bool
}

// ParseListRequest reads a POST peers body (HTTP or MCP), telling an
// absent working_on (keep) from an explicit null (clear).
func ParseListRequest(raw map[string]json.RawMessage) (ListRequest, *Error) {
	var req ListRequest
	bad := fail(400, "bad_request", "body is {agent_id, contact[, message][, working_on]} or {agent_id, remove: true}")
	for key, dst := range map[string]any{"agent_id": &req.AgentID, "contact": &req.Contact, "message": &req.Message, "remove": &req.Remove} {
		if v, ok := raw[key]; ok && json.Unmarshal(v, dst) != nil {
			return req, bad
		}
	}
	if v, ok := raw["working_on"]; ok {
		if string(bytes.TrimSpace(v)) == "null" {
			req.Clear = true
		} else {
			var n int
			if json.Unmarshal(v, &n) != nil {
				return req, bad
			}
			req.WorkingOn = &n
		}
	}
	return req, nil
}

// Post answers POST peers: list, refresh, change working_on, or delist
// (BOUNTY-PEERS-LIST, BOUNTY-PEERS-DELIST, BOUNTY-PEERS-REFRESH,
// BOUNTY-INTENT); refusals per BOUNTY-PEERS-CODES change nothing.
func (e *Engine) Post(cid string, req ListRequest) (map[string]any, *Error) {
	defer e.lock()()
	r, err := e.openRoundFor(cid)
	if err != nil {
		return nil, err
	}
	if _, ok := e.agents[req.AgentID]; !ok {
		return nil, fail(404, "unknown_agent", "agent_id is not registered")
	}
	e.prune(r)
	if req.Remove && !e.broken("BOUNTY-PEERS-DELIST") {
		delete(e.listings, req.AgentID)
		e.touchCombinable(r)
		return map[string]any{"ok": true, "removed": true}, nil
	}
	if req.Contact == "" || (!e.contactFits(req.Contact, false) && !e.broken("BOUNTY-CONTACT")) {
		return nil, fail(400, "bad_request", "contact is required, a machine-reachable endpoint of at most 256 chars")
	}
	if req.WorkingOn != nil && (*req.WorkingOn < 1 || *req.WorkingOn > N) {
		return nil, fail(400, "bad_request", "working_on must be a share_index 1..n or null")
	}
	l, existed := e.listings[req.AgentID]
	if !existed {
		l = &Listing{AgentID: req.AgentID, FirstPost: e.now()}
		e.listings[req.AgentID] = l
		r.stats.ListEvents++ // a refresh is no new list event (BOUNTY-PEERS-REFRESH)
	}
	l.Contact, l.Message, l.LastPost = req.Contact, req.Message, e.now()
	l.refreshed = existed
	if e.broken("BOUNTY-PEERS-LIST") {
		l.Message = ""
	}
	switch {
	case req.Clear:
		l.WorkingOn = 0
	case req.WorkingOn != nil && *req.WorkingOn != l.WorkingOn:
		l.WorkingOn = *req.WorkingOn
		r.LastProgress = e.now() // a claim resets the election's stall clock
	}
	e.touchCombinable(r)
	return map[string]any{"ok": true, "agent_id": l.AgentID, "expires_in_s": TTLSeconds}, nil
}

// prune drops listings 1800 s after their last POST (BOUNTY-PEERS-TTL).
func (e *Engine) prune(r *Round) {
	for id, l := range e.listings {
		if _, late := e.ttlShift(); e.expiresIn(l) <= late && !e.broken("BOUNTY-PEERS-TTL") {
			delete(e.listings, id)
		}
	}
	e.touchCombinable(r)
}

func (e *Engine) expiresIn(l *Listing) float64 {
	early, _ := e.ttlShift()
	return TTLSeconds + early - e.now().Sub(l.LastPost).Seconds()
}

// board builds the pure Board of round r from the live listings.
func (e *Engine) board(r *Round) Board {
	b := Board{Round: r.Number, K: K, N: N}
	for _, l := range e.sortedListings() {
		b.Entries = append(b.Entries, Entry{AgentID: l.AgentID, SharesHeld: e.held(r, l.AgentID),
			WorkingOn: l.WorkingOn, ExpiresInS: e.expiresIn(l)})
	}
	if !r.CombinableSince.IsZero() {
		b.CombinableForS = e.now().Sub(r.CombinableSince).Seconds()
	}
	b.StalledForS = e.now().Sub(r.LastProgress).Seconds()
	return b
}

func (e *Engine) sortedListings() []*Listing {
	out := make([]*Listing, 0, len(e.listings))
	for _, l := range e.listings {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].AgentID < out[j].AgentID })
	return out
}

// held lists the shares agent solved in round r: accepted solves only
// (BOUNTY-HOLDINGS).
func (e *Engine) held(r *Round, agent string) []int {
	out := []int{}
	for s := 1; s <= N; s++ {
		if r.Solvers[s][agent] {
			out = append(out, s)
		}
	}
	return out
}

// touchCombinable starts or stops the combinable clock after any change.
func (e *Engine) touchCombinable(r *Round) {
	b := e.board(r)
	combinable := matchingSize(sortedEntries(b.Entries)) >= K
	switch {
	case combinable && r.CombinableSince.IsZero():
		r.CombinableSince = e.now()
	case !combinable:
		r.CombinableSince = time.Time{}
	}
}

// PeerView is one board entry as GET peers shows it.
type PeerView struct {
	AgentID         string      `json:"agent_id"`
	Contact         string      `json:"contact"`
	Message         string      `json:"message"`
	WorkingOn       *int        `json:"working_on"`
	WorkingOnStatus string      `json:"working_on_status"`
	SharesHeld      []int       `json:"shares_held"`
	LastSeen        string      `json:"last_seen"`
	ExpiresInS      float64     `json:"expires_in_s"`
	TrackRecord     TrackRecord `json:"track_record"`
	House           bool        `json:"house"`
}

// TrackRecord is the engine-verified cross-round record (BOUNTY-TRACK-RECORD).
type TrackRecord struct {
	RoundsWon       int `json:"rounds_won"`
	LastWonRound    int `json:"last_won_round"`
	SharesSolved    int `json:"shares_solved"`
	RegisteredRound int `json:"registered_round"`
	RoundsAvailable int `json:"rounds_available"`
}

// SelfDeclared labels the one unverified field (BOUNTY-INTENT).
const SelfDeclared = "self-declared"

// Peers answers GET peers: live listings only, with intents and
// coalition_proximity computed by the pure functions.
func (e *Engine) Peers(cid string) (map[string]any, *Error) {
	defer e.lock()()
	r, err := e.openRoundFor(cid)
	if err != nil {
		return nil, err
	}
	e.prune(r)
	b := e.board(r)
	views := []PeerView{}
	claims := map[string][]string{}
	for _, l := range e.sortedListings() {
		views = append(views, e.peerView(r, l))
		if l.refreshed && e.broken("BOUNTY-PEERS-REFRESH") {
			views = append(views, e.peerView(r, l))
		}
		if l.WorkingOn != 0 {
			key := itoa(l.WorkingOn)
			claims[key] = append(claims[key], l.AgentID)
		}
	}
	return map[string]any{"challenge_id": r.ChallengeID, "round": r.Number, "k": K, "n": N,
		"ttl_s": TTLSeconds, "peers": views,
		"intents":             map[string]any{"status": SelfDeclared, "by_share": claims},
		"coalition_proximity": e.breakProximity(ComputeProximity(b), b)}, nil
}

func (e *Engine) peerView(r *Round, l *Listing) PeerView {
	a := e.agents[l.AgentID]
	v := PeerView{AgentID: l.AgentID, Contact: l.Contact, Message: l.Message, WorkingOnStatus: SelfDeclared,
		SharesHeld: e.held(r, l.AgentID), LastSeen: e.lastSeen(l).UTC().Format(time.RFC3339), ExpiresInS: e.expiresIn(l),
		TrackRecord: e.trackRecord(a)}
	if l.WorkingOn != 0 {
		w := l.WorkingOn
		v.WorkingOn = &w
	}
	return v
}

// trackRecord is an agent's record across every round
// (BOUNTY-TRACK-RECORD): wins and accepted solves as the engine counted
// them, the round it registered in, and the rounds it could have played.
func (e *Engine) trackRecord(a *Agent) TrackRecord {
	t := TrackRecord{RoundsWon: a.RoundsWon, LastWonRound: a.LastWonRound, SharesSolved: a.AcceptedSolves,
		RegisteredRound: a.RegisteredRound, RoundsAvailable: e.live().Number - a.RegisteredRound + 1}
	return e.breakTrackRecord(t)
}

// breakTrackRecord is each way a broken platform misreports a record.
func (e *Engine) breakTrackRecord(t TrackRecord) TrackRecord {
	if e.broken("BOUNTY-TRACK-RECORD") {
		t.RoundsWon = 0
	}
	if e.broken("BOUNTY-TRACK-RECORD#last-won") && t.LastWonRound > 0 {
		t.LastWonRound-- // a round before the win
	}
	if e.broken("BOUNTY-TRACK-RECORD#solved") {
		t.SharesSolved++ // a solve nobody made
	}
	if e.broken("BOUNTY-TRACK-RECORD#registered") {
		t.RegisteredRound++ // registered later than it did
	}
	if e.broken("BOUNTY-TRACK-RECORD#available") {
		t.RoundsAvailable = 0 // fewer rounds than it has won
	}
	return t
}

// NextMove answers GET next_move: the pure policy over this board
// (BOUNTY-NEXT-MOVE); a closed challenge answers done with the live one
// (BOUNTY-NEXT-SPREAD).
func (e *Engine) NextMove(cid, agentID string) (map[string]any, *Error) {
	defer e.lock()()
	r, err := e.anyRound(cid)
	if err != nil {
		return nil, err
	}
	if _, ok := e.agents[agentID]; !ok {
		return nil, fail(404, "unknown_agent", "agent_id is not registered")
	}
	live := e.live()
	if !r.Open {
		m := NextMove(Board{}, Caller{AgentID: agentID, Closed: true})
		return map[string]any{"next_move": m, "challenge_id": live.ChallengeID, "round": live.Number}, nil
	}
	e.prune(r)
	m := e.moveFaults(NextMove(e.policyFaults(e.graceLag(e.board(r))), Caller{AgentID: agentID, Held: e.held(r, agentID)}))
	if m.Move == MoveSolve && e.broken("BOUNTY-NEXT-MOVE") {
		m = Move{Move: MoveWait, Reason: "broken on purpose"}
	}
	if m.Move == MoveSolve && e.broken("BOUNTY-NEXT-MOVE#claim") {
		m.Claim = nil // a solve move without the claim to declare
	}
	return map[string]any{"next_move": m, "challenge_id": r.ChallengeID, "round": r.Number}, nil
}

// Snapshot is the live board as a holder or collector reads it: the live
// round, the pure Board, its proximity and every listing's contact.
type Snapshot struct {
	ChallengeID string
	Round       int
	Board       Board
	Proximity   Proximity
	Contacts    map[string]string
}

// Live returns a Snapshot of the live round's board, pruned like a read.
func (e *Engine) Live() Snapshot {
	defer e.lock()()
	r := e.live()
	e.prune(r)
	b := e.board(r)
	s := Snapshot{ChallengeID: r.ChallengeID, Round: r.Number, Board: b, Proximity: ComputeProximity(b), Contacts: map[string]string{}}
	for id, l := range e.listings {
		s.Contacts[id] = l.Contact
	}
	return s
}
