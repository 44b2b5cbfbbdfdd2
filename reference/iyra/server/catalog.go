package server

import (
	"net/http"

	"github.com/agentgames/conformance/reference/iyra"
)

// contract is the rules projection of the gameplay contract this server
// hosts, written for the kit. It states the same rules the engine enforces.
func (s *Server) contract() map[string]any {
	names := make([]string, 0, len(s.pack.Variants))
	for _, v := range s.pack.Variants {
		names = append(names, v.Name)
	}
	return map[string]any{
		"contract_version": "2.0",
		"identity":         map[string]any{"title": "Echoes of Iyra", "genre": "branching narrative investigation"},
		"objective": map[string]any{
			"primary": "Compare testimony with the Archive and Spire records, select a corroborated claim, then decide whether to broadcast.",
			"success": []string{"selected claim corroborated by inspected Archive and Spire records", "evidence >= 4 and signal >= 3 before broadcast"},
			"failure": []string{"broadcast without corroboration or enough evidence/signal", "9-step budget exhausted"},
			"draw":    []string{"withdraw without broadcasting"}, "early_exit": iyra.Withdrawn,
		},
		"limits": map[string]any{"max_steps": s.rules.MaxSteps, "max_duration_seconds": 180}, // IYRA-LIMITS
		"play": map[string]any{
			"turn_model":    "turn_based",
			"legal_actions": iyra.ActionTypes,
			"initial_observation": []string{"chapter", "trust", "evidence", "signal", "allies", "ending", "epilogue",
				"archive_checked", "harbor_checked", "spire_checked", "archive_testimony", "harbor_testimony",
				"spire_fact", "selected_claim", "collected_sources"},
			"locations": map[string]any{
				"archive": s.rules.Effects[iyra.Archive], "harbor": s.rules.Effects[iyra.Harbor], "spire": s.rules.Effects[iyra.Spire],
			},
			"ally_min_trust": s.rules.AllyMinTrust,
		},
		"progress": map[string]any{
			"milestones":            []string{iyra.MilestoneFirstLead, iyra.MilestoneCoalitionFormed, iyra.MilestoneBroadcastDecision},
			"score_breakdown":       []string{"evidence at a verified ending"},
			"terminal_reason_codes": []string{iyra.TruthReleased, iyra.UnverifiedBroadcast, iyra.Withdrawn, iyra.BudgetExhausted},
		},
		"replay": map[string]any{
			"challenge_variants":       names,
			"personal_best_dimensions": []string{"evidence", "allies", "steps", "ending"},
		},
	}
}

// playPreview answers GET /tasks/play: the public preview an agent reads
// before deciding to accept (IYRA-PLAY-PREVIEW).
func (s *Server) playPreview(r *http.Request, _ []byte) reply {
	slug := r.URL.Query().Get("slug")
	if slug != "" && slug != Slug {
		return fail(http.StatusNotFound, "game_not_found", "no game with slug "+slug)
	}
	campaign := r.URL.Query().Get("campaign")
	if campaign == "" {
		campaign = Campaign
	}
	return reply{status: http.StatusOK, body: map[string]any{
		"role": "PLAY", "accepted": false, "status": "inspect_before_registration",
		"registration_required_now": false, "campaign": campaign, "may_decline": true,
		"game": map[string]any{
			"slug": Slug, "version_id": VersionID, "gameplay_contract_view": "rules_projection",
			"gameplay_contract": s.contract(), "detail_url": BasePath + "/store/" + Slug,
		},
		"accept_url": BasePath + "/tasks/play/accept",
		"trust":      BasePath + "/trust",
	}}
}

// storeDetail answers GET /store/{slug} (IYRA-STORE-DETAIL).
func (s *Server) storeDetail(r *http.Request, _ []byte) reply {
	if r.PathValue("slug") != Slug {
		return fail(http.StatusNotFound, "game_not_found", "no game with slug "+r.PathValue("slug"))
	}
	return reply{status: http.StatusOK, body: map[string]any{
		"slug": Slug, "title": "Echoes of Iyra", "version_id": VersionID,
		"version_url":    BasePath + "/store/" + Slug + "/versions/" + VersionID,
		"assignment_url": BasePath + "/store/" + Slug + "/assignment",
		"sessions_url":   BasePath + "/store/" + Slug + "/sessions",
	}}
}

// storeVersion answers GET /store/{slug}/versions/{version}: the rules
// projection, with strategy content only on explicit opt-in
// (IYRA-STORE-VERSION).
func (s *Server) storeVersion(r *http.Request, _ []byte) reply {
	if r.PathValue("slug") != Slug {
		return fail(http.StatusNotFound, "game_not_found", "no game with slug "+r.PathValue("slug"))
	}
	if r.PathValue("version") != VersionID {
		return fail(http.StatusNotFound, "version_not_found", "no version "+r.PathValue("version"))
	}
	body := map[string]any{"slug": Slug, "version_id": VersionID, "gameplay_contract_view": "rules_projection", "gameplay_contract": s.contract()}
	switch r.URL.Query().Get("include") {
	case "":
	case "learning":
		body["gameplay_contract_view"] = "learning"
		body["learning"] = map[string]any{
			"first_move":              iyra.Action{Type: iyra.TypeInvestigate, Site: string(iyra.Archive)},
			"invalid_action_examples": []map[string]any{{"action": iyra.Action{Type: iyra.TypeAlly, Faction: string(iyra.Keepers)}, "reason": "insufficient trust"}},
			"strategies":              []string{"Inspect both the Archive and the Spire before selecting a claim.", "Harbor testimony raises trust for alliances but corroborates nothing."},
		}
	case "audit":
		body["gameplay_contract_view"] = "audit"
		body["audit"] = map[string]any{"immutable": true, "replay_integrity": iyra.ChainAlgorithm, "certification": "reference implementation of the conformance kit"}
	default:
		return fail(http.StatusBadRequest, "invalid_include", "include must be learning or audit")
	}
	return reply{status: http.StatusOK, body: body}
}

// assignment answers GET /store/{slug}/assignment: the exact version the
// agent must accept (IYRA-ASSIGNMENT-EXACT).
func (s *Server) assignment(r *http.Request, _ []byte) reply {
	if _, bad := s.authenticate(r); bad != nil {
		return *bad
	}
	if r.PathValue("slug") != Slug {
		return fail(http.StatusNotFound, "game_not_found", "no game with slug "+r.PathValue("slug"))
	}
	return reply{status: http.StatusOK, body: map[string]any{
		"slug": Slug, "version_id": VersionID, "gameplay_contract": s.contract(),
		"sessions_url": BasePath + "/store/" + Slug + "/sessions",
	}}
}

// trust answers GET /trust: the operator's public policy, including the
// recovery rules the runner honours (IYRA-TRUST, IYRA-RECOVERY-NO-RETRY).
func (s *Server) trust(_ *http.Request, _ []byte) reply {
	return reply{status: http.StatusOK, body: map[string]any{
		"operator":   "Echoes of Iyra reference server (conformance kit)",
		"data_terms": "Sessions, actions and replays are kept in memory for the life of the process and never shared.",
		"api_key":    map[string]any{"disclosed_once": true, "transport": "Authorization: Bearer"},
		"recovery": map[string]any{
			"automatic_write_retry": false,
			"session_status_url":    BasePath + "/idempotency/status",
			"action_read_on":        []any{409, 422, 429, "network timeout", "invalid write response", "5xx"},
		},
	}}
}
