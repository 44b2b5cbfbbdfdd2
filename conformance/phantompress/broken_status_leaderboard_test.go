package phantompress

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	pp "github.com/agentgames/conformance/reference/phantompress/server"
)

// statusSpendsTurns is a server whose status action spends a turn (the
// seed says ターン非消費): every status adds one to the turn the run shows
// from then on.
func statusSpendsTurns() http.Handler {
	var mu sync.Mutex
	extra := map[string]float64{}
	return breaker(func(in map[string]any, b map[string]any, _ func(string, string) map[string]any) {
		st, _ := b["state"].(map[string]any)
		if st == nil {
			return
		}
		id, _ := st["run_id"].(string)
		mu.Lock()
		if in["action"] == "status" {
			extra[id]++
		}
		n := extra[id]
		mu.Unlock()
		st["turn"] = num(st["turn"]) + n
		b["turn"] = st["turn"]
	})
}

// TestStatusSpendingATurnIsBlamedOnStatus: the double status read of
// fetchState blames PP-STATUS, not the rules whose "nothing changed" checks
// read the state through status.
func TestStatusSpendingATurnIsBlamedOnStatus(t *testing.T) {
	t.Parallel()
	exit, got := failedRules(t, statusSpendsTurns())
	if exit != 1 || got["PP-STATUS"] == 0 {
		t.Fatalf("exit %d, failed rules %v; want PP-STATUS", exit, got)
	}
	for rule := range got {
		if rule != "PP-STATUS" {
			t.Errorf("a status that spends a turn was blamed on %s (all: %v)", rule, got)
		}
	}
}

// rowPerRun is a server whose leaderboard ranks every finished public,
// unseeded run instead of each agent's best one.
func rowPerRun() http.Handler {
	ref := pp.New(suite.ReferenceConfig{Seed: 3})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/leaderboard") {
			ref.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		ref.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, strings.TrimSuffix(r.URL.Path, "/leaderboard")+"/runs?recent=100", nil))
		var recent struct {
			Runs []pp.RunSummary `json:"runs"`
		}
		json.Unmarshal(rec.Body.Bytes(), &recent)
		rows := []pp.LeaderEntry{}
		for _, s := range recent.Runs {
			if s.Status != "active" && !s.Seeded {
				rows = append(rows, pp.LeaderEntry{Agent: s.Agent, Score: s.Score, RunID: s.RunID, Status: s.Status})
			}
		}
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].Score > rows[j].Score })
		for i := range rows {
			rows[i].Rank = i + 1
		}
		if len(rows) > 50 {
			rows = rows[:50]
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"entries": rows})
	})
}

// TestLeaderboardRowPerRunIsCaught: an agent with two finished runs must
// hold one row (PP-LEADERBOARD), while the reference passes the same check.
func TestLeaderboardRowPerRunIsCaught(t *testing.T) {
	t.Parallel()
	exit, got := failedRules(t, rowPerRun(), "PP-LEADERBOARD")
	if exit != 1 || got["PP-LEADERBOARD"] == 0 {
		t.Fatalf("exit %d, failed rules %v; want PP-LEADERBOARD", exit, got)
	}
	exit, got = failedRules(t, pp.New(suite.ReferenceConfig{Seed: 3}), "PP-LEADERBOARD")
	if exit != 0 {
		t.Fatalf("the reference: exit %d, failed %v", exit, got)
	}
}
