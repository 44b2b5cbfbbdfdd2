package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/agentgames/conformance/fixtures"
	"github.com/agentgames/conformance/reference/iyra"
	"github.com/agentgames/conformance/reference/skeleton"
)

// contractOrigin is the host the source contract's URLs name. The reference
// serves the contract's own document with that host replaced by the one a
// request reached, so an agent tested offline follows the seed's flow
// (do_this_now, after_verify, after_assignment, execution_contract) against
// this server and never against the real platform.
const contractOrigin = "https://agent-arcade-ai.cursoraikk.chatgpt.site"

var (
	playOnce sync.Once
	playDoc  map[string]any
	playErr  error
)

// playDocument returns fixtures/iyra/play.json, the source contract's play
// document verbatim, parsed once. Its facts are the rules the engine
// enforces; it is compiled in, so a failure to parse is a build defect.
func playDocument() map[string]any {
	playOnce.Do(func() {
		raw, err := fixtures.ReadFile("iyra/play.json")
		if err != nil {
			playErr = err
			return
		}
		playErr = json.Unmarshal(raw, &playDoc)
	})
	if playErr != nil {
		panic("iyra: fixtures/iyra/play.json: " + playErr.Error())
	}
	return playDoc
}

// gameDoc returns the document's game object.
func gameDoc() map[string]any {
	g, _ := playDocument()["game"].(map[string]any)
	return g
}

// contract is the rules projection of the gameplay contract, as the seed
// states it (IYRA-PLAY-PREVIEW, IYRA-ASSIGNMENT-EXACT, IYRA-LIMITS). It is
// shared read-only by every answer.
func contract() map[string]any {
	c, _ := gameDoc()["gameplay_contract"].(map[string]any)
	return c
}

// rebase deep-copies a JSON value, replacing the contract's host with
// origin in every string.
func rebase(v any, origin string) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, child := range t {
			out[k] = rebase(child, origin)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, child := range t {
			out[i] = rebase(child, origin)
		}
		return out
	case string:
		return strings.ReplaceAll(t, contractOrigin, origin)
	}
	return v
}

// requestOrigin is the scheme and host a request reached.
func requestOrigin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// playPreview answers GET /tasks/play: the public preview an agent reads
// before deciding to accept, the seed's document with its URLs pointing at
// this server (IYRA-PLAY-PREVIEW).
func (s *Server) playPreview(r *http.Request, _ []byte) reply {
	slug := r.URL.Query().Get("slug")
	if slug != "" && slug != Slug {
		return fail(http.StatusNotFound, "game_not_found", "no game with slug "+slug)
	}
	return reply{status: http.StatusOK, body: rebase(playDocument(), requestOrigin(r))}
}

// storeDetail answers GET /store/{slug} (IYRA-STORE-DETAIL).
func (s *Server) storeDetail(r *http.Request, _ []byte) reply {
	if r.PathValue("slug") != Slug {
		return fail(http.StatusNotFound, "game_not_found", "no game with slug "+r.PathValue("slug"))
	}
	return reply{status: http.StatusOK, body: s.document("store", storeDoc)}
}

// storeDoc is the game's store entry (IYRA-STORE-DETAIL).
func storeDoc() any {
	title, _ := contract()["identity"].(map[string]any)["title"].(string)
	return map[string]any{
		"slug": Slug, "title": title, "version_id": VersionID,
		"version_url":    BasePath + "/store/" + Slug + "/versions/" + VersionID,
		"assignment_url": BasePath + "/store/" + Slug + "/assignment",
		"sessions_url":   BasePath + "/store/" + Slug + "/sessions",
	}
}

// strategies are the kit's learning strategies, served only on explicit
// opt-in (IYRA-STORE-VERSION, IYRA-STORE-LAYERS).
var strategies = []string{
	"Inspect both the Archive and the Spire before selecting a claim: corroboration needs both records.",
	"Harbor testimony raises trust for alliances but corroborates nothing.",
	"Select the claim whose predictions both records match; a change costs one evidence.",
}

// storeVersion answers GET /store/{slug}/versions/{version}: the rules
// projection of that exact version, with strategy and audit content only on
// explicit opt-in (IYRA-STORE-VERSION, IYRA-STORE-LAYERS).
func (s *Server) storeVersion(r *http.Request, _ []byte) reply {
	if r.PathValue("slug") != Slug {
		return fail(http.StatusNotFound, "game_not_found", "no game with slug "+r.PathValue("slug"))
	}
	if r.PathValue("version") != VersionID {
		return fail(http.StatusNotFound, "version_not_found", "no version "+r.PathValue("version"))
	}
	body := map[string]any{
		"slug": Slug, "version_id": VersionID, "gameplay_contract_view": gameDoc()["gameplay_contract_view"],
		"gameplay_contract": contract(), "information_layers": rebase(gameDoc()["information_layers"], requestOrigin(r)),
	}
	switch q := r.URL.Query(); q.Get("include") {
	case "":
		if q.Has("include") {
			return fail(http.StatusBadRequest, "invalid_include", "include must be learning or audit")
		}
	case "learning":
		learning, _ := contract()["learning"].(map[string]any)
		body["gameplay_contract_view"] = "learning"
		body["learning"] = map[string]any{
			"first_move": learning["first_move"], "invalid_action_examples": learning["invalid_action_examples"],
			"strategies": strategies,
		}
	case "audit":
		body["gameplay_contract_view"] = "audit"
		body["audit"] = map[string]any{"immutable": true, "replay_integrity": iyra.ChainAlgorithm,
			"certification": "reference implementation of the conformance kit"}
	default:
		return fail(http.StatusBadRequest, "invalid_include", "include must be learning or audit")
	}
	return reply{status: http.StatusOK, body: body}
}

// assignment answers GET /store/{slug}/assignment: the exact version the
// agent must accept with its gameplay_contract (IYRA-ASSIGNMENT-EXACT).
func (s *Server) assignment(r *http.Request, _ []byte) reply {
	a, bad := s.authenticate(r)
	if bad != nil {
		return *bad
	}
	slug := r.PathValue("slug")
	if slug == OtherSlug {
		return otherAssignment()
	}
	if slug != Slug {
		return fail(http.StatusNotFound, "game_not_found", "no game with slug "+r.PathValue("slug"))
	}
	if r.URL.Query().Get("track") == RolloutTrack {
		a.rollout = true
		return rolloutAssignment()
	}
	origin := requestOrigin(r)
	return reply{status: http.StatusOK, body: s.document("assignment "+origin, func() any { return assignmentDoc(origin) })}
}

// assignmentDoc is the game's assignment as reached at origin: the
// version, the gameplay contract and the information layers, their URLs
// on origin (IYRA-ASSIGNMENT-EXACT).
func assignmentDoc(origin string) any {
	return map[string]any{
		"slug": Slug, "version_id": VersionID, "gameplay_contract_view": gameDoc()["gameplay_contract_view"],
		"gameplay_contract": contract(), "information_layers": rebase(gameDoc()["information_layers"], origin),
		"sessions_url": BasePath + "/store/" + Slug + "/sessions",
	}
}

// rolloutAssignment answers the rollout track's assignment: the game's
// second version, with the same rules (IYRA-REF-ROLLOUT).
func rolloutAssignment() reply {
	return reply{status: http.StatusOK, body: map[string]any{
		"slug": Slug, "version_id": RolloutVersionID, "gameplay_contract_view": gameDoc()["gameplay_contract_view"],
		"gameplay_contract": contract(), "sessions_url": BasePath + "/store/" + Slug + "/sessions",
	}}
}

// trust answers GET /trust, a URL the contract publishes (IYRA-PUBLISHED-URLS): the operator's public policy, including the
// recovery rules the runner honours (IYRA-TRUST, IYRA-RECOVERY-NO-RETRY).
func (s *Server) trust(_ *http.Request, _ []byte) reply {
	return reply{status: http.StatusOK, body: s.document("trust", trustDoc)}
}

// trustDoc is the operator's trust document (IYRA-TRUST).
func trustDoc() any {
	return map[string]any{
		"operator":   "Echoes of Iyra reference server (conformance kit)",
		"data_terms": "Sessions, actions and replays are kept in memory for the life of the process and never shared.",
		"api_key":    map[string]any{"disclosed_once": true, "transport": "Authorization: Bearer"},
		"recovery": map[string]any{
			"automatic_write_retry": false,
			"session_status_url":    BasePath + "/idempotency/status",
			"action_read_on":        []any{409, 422, 429, "network timeout", "invalid write response", "5xx"},
		},
	}
}

// maxDocuments bounds the documents kept encoded: an origin is the
// client's Host header, so a client naming ever new hosts gets its
// answers encoded afresh instead of growing the cache.
const maxDocuments = 16

// preEncoded is an answer body already encoded as skeleton.EncodeJSON
// encodes it, trailing newline included; encode writes it as it is.
type preEncoded []byte

// document is the encoded answer named key, built and encoded the first
// time it is asked for. Only answers that depend on nothing but their key
// (the store entry, the trust document, the assignment for one origin)
// are kept: their bytes are the same every time, and the assignment
// carries the whole gameplay contract, which was encoded again for every
// read. Called under s.mu, as every handler is; the bytes are read-only.
func (s *Server) document(key string, build func() any) preEncoded {
	if doc, ok := s.docs[key]; ok {
		return doc
	}
	doc := preEncoded(skeleton.EncodeJSON(http.StatusOK, build()).Body)
	if s.docs == nil {
		s.docs = map[string]preEncoded{}
	}
	if len(s.docs) < maxDocuments {
		s.docs[key] = doc
	}
	return doc
}

// otherAssignment answers the second game's assignment: its own version and
// its sessions URL; its rules are the reference's stand-in, the Iyra
// contract (IYRA-REF-SECOND-GAME).
func otherAssignment() reply {
	return reply{status: http.StatusOK, body: map[string]any{
		"slug": OtherSlug, "version_id": OtherVersionID, "gameplay_contract_view": gameDoc()["gameplay_contract_view"],
		"gameplay_contract": contract(), "sessions_url": BasePath + "/store/" + OtherSlug + "/sessions",
	}}
}
