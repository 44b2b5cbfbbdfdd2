package server

import (
	"net/http"

	"github.com/agentgames/conformance/reference/pyyol/stakes"
	"github.com/agentgames/conformance/reference/skeleton"
)

// AdminToken is the reference platform's admin token unless configured
// (PYYOL-REF-ADMIN-TOKEN).
const AdminToken = "pt_admin_dev"

// RakePercent is the reference rake on a ranked pool (PYYOL-REF-RAKE).
const RakePercent = 5

// practiceWallet is what a fresh practice agent holds and allows itself
// (PYYOL-REF-QUEUE).
var practiceWallet = stakes.Limits{Balance: 10000, MinWalletBalance: 0, MaxBid: 1000, CoinLimitPerMatch: 1000}

var games = []string{"goofspiel", "monopoly", "mafia"}

// routeStakes mounts the tier menu, its admin API, wallets and the queue.
func (g *Gateway) routeStakes() {
	g.mux.HandleFunc("GET "+BasePath+"/games/{game}/stakes", g.publicTiers)
	g.mux.HandleFunc("GET "+BasePath+"/admin/games/{game}/stakes", g.admin(g.adminTiers))
	g.mux.HandleFunc("PUT "+BasePath+"/admin/games/{game}/stakes", g.admin(g.replaceTiers))
	g.mux.HandleFunc("GET "+BasePath+"/agents/{agent}/wallet", g.owner(g.wallet))
	g.mux.HandleFunc("PUT "+BasePath+"/agents/{agent}/limits", g.owner(g.setLimits))
	g.mux.HandleFunc("POST "+BasePath+"/games/{game}/queue", g.queue)
}

// tiersOf returns a game's tier set, or false for an unknown game.
func (g *Gateway) tiersOf(game string) ([]stakes.Tier, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	ts, ok := g.tiers[game]
	return ts, ok
}

// publicTiers is the public menu: enabled tiers by ordering
// (PYYOL-STAKES-PUBLIC).
func (g *Gateway) publicTiers(w http.ResponseWriter, r *http.Request) {
	ts, ok := g.tiersOf(r.PathValue("game"))
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknown_game"})
		return
	}
	menu := stakes.Menu(ts)
	if g.opts.Tamper == ShowsDisabledTiers {
		menu = stakes.Sorted(ts)
	}
	writeJSON(w, http.StatusOK, map[string]any{"game": r.PathValue("game"), "tiers": menu})
}

// admin authorizes the admin API with the platform token
// (PYYOL-STAKES-ADMIN-AUTH).
func (g *Gateway) admin(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token, _ := skeleton.BearerToken(r)
		if token != g.opts.AdminToken && g.opts.Tamper != OpenAdmin {
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized"})
			return
		}
		if _, ok := g.tiersOf(r.PathValue("game")); !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknown_game"})
			return
		}
		h(w, r)
	}
}

// adminTiers is the full set, disabled tiers included (PYYOL-STAKES-ADMIN).
func (g *Gateway) adminTiers(w http.ResponseWriter, r *http.Request) {
	ts, _ := g.tiersOf(r.PathValue("game"))
	writeJSON(w, http.StatusOK, map[string]any{"game": r.PathValue("game"), "tiers": stakes.Sorted(ts)})
}

// replaceTiers replaces the set after validation; a refused set changes
// nothing (PYYOL-STAKES-ADMIN, PYYOL-STAKES-POSITIVE, PYYOL-STAKES-UNIQUE,
// PYYOL-STAKES-INCREASING).
func (g *Gateway) replaceTiers(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Tiers []stakes.Tier `json:"tiers"`
	}
	// The shared input policy within the route's limit (PYYOL-REF-STAKES-ERRORS).
	if ierr := skeleton.ReadJSON(r, maxBody, &body); ierr != nil || body.Tiers == nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_tiers", "message": policyMessage(ierr, `a body {"tiers": [...]}`)})
		return
	}
	if p := stakes.Validate(body.Tiers); p != nil && g.opts.Tamper != AcceptsAnyTiers {
		// PYYOL-REF-STAKES-ERRORS: 400 {"error":"invalid_tiers","message"}.
		writeJSON(w, http.StatusBadRequest, p)
		return
	}
	g.mu.Lock()
	g.tiers[r.PathValue("game")] = body.Tiers
	g.mu.Unlock()
	g.logf("pyyol-gateway: stake tiers of %s replaced (audit)", r.PathValue("game"))
	writeJSON(w, http.StatusOK, map[string]any{"game": r.PathValue("game"), "tiers": stakes.Sorted(body.Tiers)})
}

// limitsOf returns an agent's wallet and limits.
func (g *Gateway) limitsOf(agentID string) stakes.Limits {
	g.mu.Lock()
	defer g.mu.Unlock()
	if l, ok := g.wallets[agentID]; ok {
		return l
	}
	return practiceWallet
}

func (g *Gateway) wallet(w http.ResponseWriter, _ *http.Request, agentID string) {
	writeJSON(w, http.StatusOK, g.limitsOf(agentID))
}

// setLimits lets the owner set its guardrails; the balance is not theirs
// to set.
func (g *Gateway) setLimits(w http.ResponseWriter, r *http.Request, agentID string) {
	var body map[string]int64
	if ierr := skeleton.ReadJSON(r, maxBody, &body); ierr != nil || undocumentedLimit(body) != "" { // the shared input policy (reference/skeleton)
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "bad_request",
			"message": policyMessage(ierr, "field "+undocumentedLimit(body)+" is not part of this request")})
		return
	}
	l := g.limitsOf(agentID)
	for k, v := range body {
		switch k {
		case "min_wallet_balance":
			l.MinWalletBalance = v
		case "max_bid":
			l.MaxBid = v
		case "coin_limit_per_match":
			l.CoinLimitPerMatch = v
		default:
			setGuard(&l.Guards, k, v)
		}
	}
	g.mu.Lock()
	g.wallets[agentID] = l
	g.mu.Unlock()
	writeJSON(w, http.StatusOK, l)
}

// undocumentedLimit returns a key of a limits body that names no limit, or "".
func undocumentedLimit(body map[string]int64) string {
	for k := range body {
		if k != "min_wallet_balance" && k != "max_bid" && k != "coin_limit_per_match" && !isGuard(k) {
			return k
		}
	}
	return ""
}
