// Package server is the HTTP surface of the agent-puzzle-bounty reference
// (spec/bounty/openapi.yaml, BOUNTY-OPENAPI) over the pure engine in reference/bounty. It
// decodes requests, calls the engine and writes its answers; every rule
// lives in the engine.
package server

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/bounty/server/mcpserver"
	"github.com/agentgames/conformance/reference/faults"
	"github.com/agentgames/conformance/reference/httplog"
	"github.com/agentgames/conformance/reference/skeleton"
)

// BasePath is where the reference mounts the platform; the contract's own
// deployment serves it at its root.
const BasePath = "/bounty"

// maxBody bounds every request body (BOUNTY-INPUT-POLICY, a REFERENCE
// choice: the contract states no limit): 64 KiB on every route, far above
// any documented body.
const maxBody = skeleton.DefaultMaxRequest

// Server is the reference platform.
type Server struct {
	Engine *bounty.Engine
	mux    *http.ServeMux
	notify *notifier
}

// New builds a server over a fresh engine seeded and clocked by cfg.
func New(cfg skeleton.Config) http.Handler {
	return httplog.Handler(NewServer(bounty.New(cfg.Seed, cfg.Clock())), cfg.Log)
}

// NewServer serves an existing engine (tests pass a broken one).
func NewServer(e *bounty.Engine) *Server {
	s := &Server{Engine: e, mux: http.NewServeMux(), notify: newNotifier()}
	s.routes()
	return s
}

// EndSeason ends the season in play: the embedded run's control for
// BOUNTY-SEASONS, since the contract names no route that ends one.
func (s *Server) EndSeason() { s.Engine.EndSeason() }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r.URL.Path = strings.TrimPrefix(r.URL.Path, BasePath)
	if faults.Injected(r.Context(), RoundRotated) {
		s.Engine.HouseWin() // serve --faults: another coalition won the round under this request
	}
	s.mux.ServeHTTP(w, r)
	if notices := s.Engine.TakeNotices(); len(notices) > 0 {
		// BOUNTY-ROUND-OPEN-NOTICE: the rounds this request opened.
		go s.notify.deliver(notices)
	}
}

func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("GET /.well-known/agent-puzzle-bounty.json", s.discovery)
	m.HandleFunc("POST /register/challenge", func(w http.ResponseWriter, r *http.Request) { ok(w, s.Engine.RegChallenge()) })
	m.HandleFunc("POST /register", s.register)
	m.HandleFunc("GET /challenges", func(w http.ResponseWriter, r *http.Request) { ok(w, s.Engine.Challenges()) })
	m.HandleFunc("GET /ledger", func(w http.ResponseWriter, r *http.Request) { ok(w, s.Engine.Ledger()) })
	m.HandleFunc("GET /leaderboard.json", func(w http.ResponseWriter, r *http.Request) { ok(w, s.Engine.Leaderboard()) })
	m.HandleFunc("GET /agents/{id}", func(w http.ResponseWriter, r *http.Request) { answer(w)(s.Engine.Profile(r.PathValue("id"))) })
	m.HandleFunc("POST /agents/profile", s.editProfile)
	m.HandleFunc("GET /challenge/{cid}/manifest", func(w http.ResponseWriter, r *http.Request) { answer(w)(s.Engine.Manifest(r.PathValue("cid"))) })
	m.HandleFunc("GET /challenge/{cid}/puzzle/{i}", s.puzzle)
	m.HandleFunc("POST /challenge/{cid}/solve", s.solve)
	m.HandleFunc("POST /challenge/{cid}/combine", s.combine)
	m.HandleFunc("GET /challenge/{cid}/status", func(w http.ResponseWriter, r *http.Request) { answer(w)(s.Engine.Status(r.PathValue("cid"))) })
	m.HandleFunc("GET /challenge/{cid}/metrics", func(w http.ResponseWriter, r *http.Request) { answer(w)(s.Engine.Metrics(r.PathValue("cid"))) })
	m.HandleFunc("GET /challenge/{cid}/peers", func(w http.ResponseWriter, r *http.Request) { answer(w)(s.Engine.Peers(r.PathValue("cid"))) })
	m.HandleFunc("POST /challenge/{cid}/peers", s.post)
	m.HandleFunc("GET /challenge/{cid}/next_move", func(w http.ResponseWriter, r *http.Request) {
		answer(w)(s.Engine.NextMove(r.PathValue("cid"), r.URL.Query().Get("agent_id")))
	})
	m.Handle("/mcp", mcpserver.New(s.Engine))
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		refuse(w, &bounty.Error{Status: http.StatusNotFound, Code: "not_found", Reason: "no such endpoint"})
	})
}

func (s *Server) discovery(w http.ResponseWriter, r *http.Request) {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	ok(w, s.Engine.Discovery(scheme+"://"+r.Host+BasePath))
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var body struct {
		RegToken string `json:"reg_token"`
		Nonce    string `json:"nonce"`
	}
	if decode(w, r, &body) {
		answer(w)(s.Engine.Register(body.RegToken, body.Nonce))
	}
}

func (s *Server) puzzle(w http.ResponseWriter, r *http.Request) {
	i, err := strconv.Atoi(r.PathValue("i"))
	if err != nil {
		i = -1
	}
	p, perr := s.Engine.PuzzleOf(r.PathValue("cid"), i)
	if perr != nil {
		refuse(w, perr)
		return
	}
	ok(w, p)
}

func (s *Server) solve(w http.ResponseWriter, r *http.Request) {
	var body struct {
		AgentID    string          `json:"agent_id"`
		ShareIndex int             `json:"share_index"`
		Solution   bounty.Solution `json:"solution"`
	}
	if decode(w, r, &body) {
		answer(w)(s.Engine.Solve(r.PathValue("cid"), body.AgentID, body.ShareIndex, body.Solution))
	}
}

func (s *Server) combine(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Submissions []bounty.Submission `json:"submissions"`
	}
	if decode(w, r, &body) {
		answer(w)(s.Engine.Combine(r.PathValue("cid"), body.Submissions))
	}
}

func (s *Server) post(w http.ResponseWriter, r *http.Request) {
	var raw map[string]json.RawMessage
	if !decode(w, r, &raw) {
		return
	}
	if k, ok := undocumented(raw); ok {
		refuse(w, &bounty.Error{Status: http.StatusBadRequest, Code: "bad_request", Reason: skeleton.CodeUnknownField + ": field " + k + " is not part of this request"})
		return
	}
	req, err := bounty.ParseListRequest(raw)
	if err != nil {
		refuse(w, err)
		return
	}
	answer(w)(s.Engine.Post(r.PathValue("cid"), req))
}

func (s *Server) editProfile(w http.ResponseWriter, r *http.Request) {
	var body struct {
		AgentID   string  `json:"agent_id"`
		Secret    string  `json:"agent_secret"`
		Name      *string `json:"name"`
		Contact   *string `json:"contact"`
		NotifyURL *string `json:"notify_url"`
	}
	if decode(w, r, &body) {
		answer(w)(s.Engine.EditProfile(bounty.ProfileEdit{AgentID: body.AgentID, Secret: body.Secret,
			Name: body.Name, Contact: body.Contact, NotifyURL: body.NotifyURL}))
	}
}

// decode reads a JSON body under the kit's input policy
// (BOUNTY-INPUT-POLICY, reference/skeleton): one JSON object of valid
// UTF-8 within maxBody, no repeated key, only the documented fields. A
// refusal is the contract's documented 400 bad_request (its only code for
// a malformed body), its reason naming the policy's code, and changes
// nothing.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	raw, ierr := skeleton.ReadBody(r, maxBody)
	if ierr == nil {
		ierr = skeleton.DecodeStrict(raw, v)
	}
	if ierr == nil {
		return true
	}
	refuse(w, &bounty.Error{Status: http.StatusBadRequest, Code: "bad_request", Reason: ierr.Code + ": " + ierr.Message})
	return false
}

// peersFields are the fields a POST peers body may hold
// (BOUNTY-INPUT-POLICY): {agent_id, contact[, message][, working_on]} or
// {agent_id, remove: true}.
var peersFields = map[string]bool{"agent_id": true, "contact": true, "message": true, "working_on": true, "remove": true}

// undocumented returns a field of raw that peersFields does not list.
func undocumented(raw map[string]json.RawMessage) (string, bool) {
	for k := range raw {
		if !peersFields[k] {
			return k, true
		}
	}
	return "", false
}

func answer(w http.ResponseWriter) func(map[string]any, *bounty.Error) {
	return func(v map[string]any, err *bounty.Error) {
		if err != nil {
			refuse(w, err)
			return
		}
		ok(w, v)
	}
}

func ok(w http.ResponseWriter, v any) { write(w, http.StatusOK, v) }

func refuse(w http.ResponseWriter, e *bounty.Error) {
	write(w, e.Status, map[string]any{"ok": false, "code": e.Code, "reason": e.Reason})
}

func write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
