package bounty_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/bounty"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
	rbounty "github.com/agentgames/conformance/reference/bounty"
	"github.com/agentgames/conformance/reference/bounty/server"
)

// slip is one realistic implementer's bug of the bounty platform: what it
// is, the rule a live run must fail, and the middleware that plants it in
// front of an unbroken reference.
type slip struct {
	name, rule string
	wrap       func(h http.Handler) http.Handler
}

// platform is an unbroken reference platform behind wrap, as a live
// deployment's handler.
func platform(wrap func(h http.Handler) http.Handler) http.Handler {
	clock := &fastClock{now: time.Unix(1_800_000_000, 0), start: time.Now()}
	return wrap(server.NewServer(rbounty.New(3, clock.Now)))
}

// at reports a request to the path ending in suffix with method.
func at(r *http.Request, method, suffix string) bool {
	return r.Method == method && strings.HasSuffix(r.URL.Path, suffix)
}

// recode answers every refusal coded from with status and code.
func recode(from string, status int, code string) func(h http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return harness.Responses(h, harness.Recode(from, status, code))
	}
}

// slipCases are bugs an implementer of the seed would plausibly write,
// none of them among the engine's Break faults (docs/detection.md keeps
// their tally): a documented code or status changed, a closed round read
// wrongly, counts that miss or double, a derived value off by one, the
// MCP surface's exact answers, a secret echoed under an innocent name.
func slipCases() []slip {
	return []slip{
		{"unearned_share answered 403, not 409", "BOUNTY-CREDIT", recode("unearned_share", 403, "unearned_share")},
		{"a racing combine's loser told round_closed, not already_solved", "BOUNTY-COMBINE-RACE", recode("already_solved", 409, "round_closed")},
		{"a bad reconstruction coded invalid_shares", "BOUNTY-RECONSTRUCT", recode("bad_reconstruction", 409, "invalid_shares")},
		{"a closed round's manifest answers 404, not 410", "BOUNTY-STALE-410", func(h http.Handler) http.Handler {
			return harness.Responses(h, func(r *http.Request, st *int, m map[string]any) {
				if *st == http.StatusGone && at(r, http.MethodGet, "/manifest") {
					*st, m["code"] = http.StatusNotFound, "not_found"
				}
			})
		}},
		{"a closed round's status answers 410", "BOUNTY-CLOSED-READABLE", goneWhenClosed("/status")},
		{"metrics never count a rejected solve", "BOUNTY-METRICS-COUNTS", func(h http.Handler) http.Handler {
			return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
				if s, ok := m["solve_attempts"].(map[string]any); ok && at(r, http.MethodGet, "/metrics") {
					s["rejected"] = 0
				}
			})
		}},
		{"metrics count every peers POST, refreshes too, as a list event", "BOUNTY-PEERS-REFRESH", countsEveryPost},
		{"shares_held shows the share an entry is working_on", "BOUNTY-HOLDINGS", func(h http.Handler) http.Handler {
			return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
				for _, e := range entries(r, m) {
					if w, ok := e["working_on"].(float64); ok && w > 0 {
						held, _ := e["shares_held"].([]any)
						e["shares_held"] = append(held, w)
					}
				}
			})
		}},
		{"agents_short one too many while the board is not combinable", "BOUNTY-PROXIMITY", func(h http.Handler) http.Handler {
			return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
				if p, ok := m["coalition_proximity"].(map[string]any); ok && at(r, http.MethodGet, "/peers") && p["combinable_now"] == false {
					p["agents_short"] = p["agents_short"].(float64) + 1
				}
			})
		}},
		{"expires_in_s stays at 1800 however old the listing", "BOUNTY-PEERS-TTL", func(h http.Handler) http.Handler {
			return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
				for _, e := range entries(r, m) {
					if _, ok := e["expires_in_s"]; ok {
						e["expires_in_s"] = 1800
					}
				}
			})
		}},
		{"a refused combine's submissions shown again on the status read", "BOUNTY-NO-SECRETS", echoesLastCombine},
		{"reputation weighs rounds played 3, not 1", "BOUNTY-REPUTATION", func(h http.Handler) http.Handler {
			return harness.Responses(h, func(_ *http.Request, _ *int, m map[string]any) {
				for _, row := range rows(m) {
					won, _ := row["rounds_won"].(float64)
					solves, _ := row["accepted_solves"].(float64)
					played, _ := row["rounds_played"].(float64)
					if _, ok := row["reputation"]; ok {
						row["reputation"] = 10*won + 3*solves + 3*played
					}
				}
			})
		}},
		{"a one-character profile name padded and accepted", "BOUNTY-PROFILE-NAME", func(h http.Handler) http.Handler {
			return harness.Requests(h, func(r *http.Request, body []byte) []byte {
				var p map[string]any
				if at(r, http.MethodPost, "/agents/profile") && json.Unmarshal(body, &p) == nil {
					if n, ok := p["name"].(string); ok && len([]rune(n)) == 1 {
						p["name"] = n + "_"
						body, _ = json.Marshal(p)
					}
				}
				return body
			})
		}},
		{"an MCP notification answered 200 with {}", "BOUNTY-MCP-NOTIFY", func(h http.Handler) http.Handler {
			return mcpEdit(h, func(w http.ResponseWriter, rpc map[string]any) bool {
				if _, hasID := rpc["id"]; hasID {
					return false
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{}`))
				return true
			})
		}},
		{"GET /mcp answered 400, not 405", "BOUNTY-MCP-GET", func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if at(r, http.MethodGet, "/mcp") {
					http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
					return
				}
				h.ServeHTTP(w, r)
			})
		}},
		{"initialize answers the newest version whatever the client asked", "BOUNTY-MCP-VERSIONS", func(h http.Handler) http.Handler {
			return mcpEdit(h, func(w http.ResponseWriter, rpc map[string]any) bool {
				if rpc["method"] != "initialize" {
					return false
				}
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Mcp-Session-Id", "slip-session")
				_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": rpc["id"], "result": map[string]any{
					"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}},
					"serverInfo": map[string]any{"name": "bounty", "version": "1"}}})
				return true
			})
		}},
		// Round 2 (docs/detection.md): fresh slips, none in the table above or the engine's faults.
		{"a proof with exactly pow_bits leading zero bits refused", "BOUNTY-REG-POW", refusesExactProofs},
		{"the agent_secret shown on the profile under credentials", "BOUNTY-REG-SECRET", secretOnProfile},
		{"the payouts drop the split's remainder", "BOUNTY-PAYOUT", func(h http.Handler) http.Handler {
			return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
				if p, ok := m["payouts"].(map[string]any); ok && at(r, http.MethodPost, "/combine") && len(p) > 0 {
					for id := range p {
						p[id] = 1000 / len(p)
					}
				}
			})
		}},
		{"the manifest's real_money is the string \"false\"", "BOUNTY-PLAY-MONEY", func(h http.Handler) http.Handler {
			return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
				if b, ok := m["bounty"].(map[string]any); ok && at(r, http.MethodGet, "/manifest") {
					b["real_money"] = "false"
				}
			})
		}},
		{"broker_grace_s in milliseconds", "BOUNTY-BROKER", func(h http.Handler) http.Handler {
			return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
				if p, ok := m["coalition_proximity"].(map[string]any); ok && at(r, http.MethodGet, "/peers") {
					p["broker_grace_s"] = 30000
				}
			})
		}},
		{"the leaderboard cached for a minute", "BOUNTY-LEADERBOARD", cachedRead("/leaderboard.json")},
		{"metrics list the live listings' contacts", "BOUNTY-METRICS", contactsInMetrics},
		{"a delisting leaves the agent's working_on claim in the intents", "BOUNTY-INTENT", claimsOutliveDelisting},
		{"k_required shows n, not k", "BOUNTY-PROXIMITY", func(h http.Handler) http.Handler {
			return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
				if p, ok := m["coalition_proximity"].(map[string]any); ok && at(r, http.MethodGet, "/peers") {
					p["k_required"] = m["n"]
				}
			})
		}},
		{"a 33-character profile name cut to 32 and accepted", "BOUNTY-PROFILE-NAME", namesCut},
		{"a closed round's metrics answer 410", "BOUNTY-CLOSED-READABLE", goneWhenClosed("/metrics")},
		{"expires_in_s counted in minutes", "BOUNTY-PEERS-TTL", func(h http.Handler) http.Handler {
			return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
				for _, e := range entries(r, m) {
					if f, ok := e["expires_in_s"].(float64); ok {
						e["expires_in_s"] = float64(int(f / 60))
					}
				}
			})
		}},
		// Round 3 (docs/detection.md): fresh slips, none in the tables above or the engine's faults.
		{"combine_attempts.total counts only the refused combines", "BOUNTY-METRICS-COUNTS", answers(http.MethodGet, "/metrics", combinesCountRefusalsOnly)},
		{"distinct_shares_listed counts duplicates", "BOUNTY-PROXIMITY", proximity(distinctCountsEveryHolding)},
		{"the manifest's k and n swapped", "BOUNTY-THRESHOLD", answers(http.MethodGet, "/manifest", swappedThreshold)},
		{"standings lowest first", "BOUNTY-LEADERBOARD", answers(http.MethodGet, "/leaderboard.json", reversedStandings)},
		{"solve_attempts.accepted counts the rejected solves too", "BOUNTY-METRICS-COUNTS", answers(http.MethodGet, "/metrics", acceptedCountsAll)},
		{"the discovery's rounds_completed left at 0", "BOUNTY-ROUNDS-COMPLETED", answers(http.MethodGet, ".json", completedNever)},
		{"combinable_now never true", "BOUNTY-PROXIMITY", proximity(func(p map[string]any, _ map[string]any) { p["combinable_now"] = false })},
		{"next_move always wait", "BOUNTY-NEXT-MOVE", answers(http.MethodGet, "/next_move", alwaysWait)},
		{"the ledger's currency USD", "BOUNTY-PLAY-MONEY", answers(http.MethodGet, "/ledger", ledgerInUSD)},
		{"nobody elected to solve", "BOUNTY-ELECTION", proximity(nobodyElected)},
		{"a peers entry shows its holder's share_hex values", "BOUNTY-NO-SECRETS", sharesOnTheBoard},
		{"tools/list without bounty_next_move", "BOUNTY-MCP-TOOLS", toolsWithoutNextMove},
		{"a registration challenge's pow_bits a string", "BOUNTY-REG-CHALLENGE", answers(http.MethodPost, "/register/challenge", func(m map[string]any) {
			if b, ok := m["pow_bits"].(float64); ok {
				m["pow_bits"] = strconv.Itoa(int(b))
			}
		})},
		{"a peers entry shows its agent's agent_secret", "BOUNTY-REG-SECRET", secretOnTheBoard},
		// Round 4 (docs/detection.md): fresh slips, none in the tables above or the engine's faults.
		{"track_record.registered_round shows the live round", "BOUNTY-TRACK-RECORD", answers(http.MethodGet, "/peers", registeredNow)},
		{"a 32-character name of non-ASCII letters refused (counted in bytes)", "BOUNTY-PROFILE-NAME", namesInBytes},
		{"MCP answers echo a numeric id as a string", "BOUNTY-MCP-FLOW", mcpAnswers(idAsString)},
		{"MCP answers served as text/plain", "BOUNTY-MCP-FLOW", mcpAsText},
		{"tools/list spells inputSchema input_schema", "BOUNTY-MCP-TOOLS", mcpAnswers(snakeSchemas)},
		{"combinable_for_s frozen at 0", "BOUNTY-BROKER", proximity(func(p map[string]any, _ map[string]any) {
			if _, ok := p["combinable_for_s"]; ok {
				p["combinable_for_s"] = 0
			}
		})},
		{"the election's rank_origin computed from round, not round-1", "BOUNTY-ELECTION", proximity(originFromRound)},
		{"the next round's intents keep the last round's claims", "BOUNTY-CARRYOVER", claimsCarriedOver},
		// Round 5 (docs/detection.md): fresh slips, none in the tables above or the engine's Break faults.
		{"an unknown JSON-RPC method answered with an empty result", "BOUNTY-MCP-FLOW", unknownMethods(emptyResult)},
		{"initialize answers empty capabilities, no tools", "BOUNTY-MCP-FLOW", mcpAnswers(toolsCapabilityDropped)},
		{"MCP answers without jsonrpc: 2.0", "BOUNTY-MCP-FLOW", mcpAnswers(withoutJSONRPC)},
		{"track_record.shares_solved counts the shares held this round", "BOUNTY-TRACK-RECORD", answers(http.MethodGet, "/peers", trackRecords(solvedThisRound))},
		{"track_record.last_won_round shows the round the win opened", "BOUNTY-TRACK-RECORD", answers(http.MethodGet, "/peers", trackRecords(wonRoundPlusOne))},
		{"a 256-character contact of non-ASCII letters refused (counted in bytes)", "BOUNTY-CONTACT", contactsInBytes},
		{"standings tied on PLAY and wins ranked by agent_id, not accepted solves", "BOUNTY-LEADERBOARD", answers(http.MethodGet, "/leaderboard.json", tiesByAgentID)},
		{"tools/list inputSchemas without type", "BOUNTY-MCP-TOOLS", mcpAnswers(untypedSchemas)},
		// Not planted: the class of the peers contact slip, pinned after its fix.
		{"a 256-character profile contact of non-ASCII letters refused (counted in bytes)", "BOUNTY-PROFILE-CONTACT", profileContactsInBytes},
		// Not planted: the class of the combinable_for_s slip, pinned after its fix.
		{"stalled_for_s frozen at 0", "BOUNTY-ELECTION", proximity(func(p map[string]any, _ map[string]any) {
			if e, ok := p["solve_election"].(map[string]any); ok {
				e["stalled_for_s"] = 0
			}
		})},
		// Round 6 (docs/detection.md): fresh slips, none in the tables above or the engine's Break faults.
		{"metrics never count a combine refused for too few agents or shares", "BOUNTY-METRICS-COUNTS", answers(http.MethodGet, "/metrics", undersizedUncounted)},
		{"metrics count the pairs who won together before as ordered pairs", "BOUNTY-METRICS-COUNTS", answers(http.MethodGet, "/metrics", pairsOrdered)},
		{"a combine that lost the race told bad_reconstruction (checked against the next round's key)", "BOUNTY-COMBINE-RACE", recode("already_solved", 422, "bad_reconstruction")},
		{"a solve move without its claim", "BOUNTY-NEXT-MOVE", answers(http.MethodGet, "/next_move", solveWithoutClaim)},
		{"the join branch's list move without join=true", "BOUNTY-NEXT-MOVE", answers(http.MethodGet, "/next_move", joinUnflagged)},
		{"a notify_url refused only when http://, any other scheme taken", "BOUNTY-PROFILE-NOTIFY", notifyRefusesHTTPOnly},
		{"an agent's edit to the name it holds refused name_taken", "BOUNTY-PROFILE-NAME", ownNameTaken},
		{"a refused solve of a solved share answers its share_hex", "BOUNTY-NO-SECRETS", refusedSolveShowsShare},
		// Round 7 (docs/detection.md): fresh slips, none in the tables above or the engine's Break faults.
		{"a registration nonce outside letters, digits, - and _ refused", "BOUNTY-REG-POW", noncesSanitised},
		{"a nonce_hex with exactly difficulty_bits leading zero bits refused", "BOUNTY-PUZZLE-HASH", exactBitsRefused},
		{"a nonce_hex of other than 16 hex digits refused", "BOUNTY-PUZZLE-HASH", nonceLengthFixed},
		{"a share solved in an earlier round credited in the next", "BOUNTY-CREDIT", creditsOutliveRounds},
		{"a claim cleared by the claimant's accepted solve of another share", "BOUNTY-INTENT", claimsClearedByAnySolve},
		{"a profile edit refused for its over-long contact keeps its name change", "BOUNTY-PROFILE-CONTACT", namesBeforeContacts},
		{"a combine of four credited agents pays the first three", "BOUNTY-PAYOUT", firstKPaid},
		{"accepted_solves and reputation count the rejected solves too", "BOUNTY-REPUTATION", rejectedSolvesCounted},
		{"the live status shows the solved shares as base64 bytes", "BOUNTY-NO-SECRETS", sharesAsBytes},
		{"GET /mcp answered 405 only when it asks for an event stream", "BOUNTY-MCP-GET", mcpGetOnlyForStreams},
		// Round 8 (docs/detection.md): fresh slips, none in the tables above or the engine's Break faults.
		{"the hash difficulty counted in whole zero bytes", "BOUNTY-PUZZLE-HASH", zeroBytesCounted},
		{"every hash_preimage share verified at the first rung's 12 bits", "BOUNTY-PUZZLE-HASH", firstRungBits},
		{"a profile edit with another agent's agent_secret applied", "BOUNTY-PROFILE-SECRET", anyIssuedSecret},
		{"a profile edit without an agent_secret applied", "BOUNTY-PROFILE-SECRET", missingSecretSkipped},
		{"a notification other than initialized answered 200 with a JSON-RPC error", "BOUNTY-MCP-NOTIFY", onlyInitializedAccepted},
		{"the next round keeps the master key, split into new shares", "BOUNTY-ROTATION", keyKept},
		{"a refused solve of a share credits its agent with the share", "BOUNTY-CREDIT", refusedSolveCredits},
		// Round 9 (docs/detection.md): fresh slips, none in the tables above or the engine's Break faults.
		{"a nonce_hex in capital hex digits refused", "BOUNTY-PUZZLE-HASH", capitalNoncesRefused},
		{"an empty notify_url answered 200 but kept", "BOUNTY-PROFILE-NOTIFY", emptyNotifyKept},
		{"a moved claim kept under its old share in the intents", "BOUNTY-INTENT", movedClaimKept},
		{"a correct solve of a closed round accepted with a share_hex", "BOUNTY-STALE-410", closedRoundSolves},
		{"a register_challenge POST without a body refused 400", "BOUNTY-REG-CHALLENGE", bodilessChallengesRefused},
	}
}

// entries are the peers board's entries in a board answer.
func entries(r *http.Request, m map[string]any) []map[string]any {
	if !at(r, http.MethodGet, "/peers") {
		return nil
	}
	var out []map[string]any
	list, _ := m["entries"].([]any)
	if list == nil {
		list, _ = m["peers"].([]any)
	}
	for _, e := range list {
		if o, ok := e.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}

// rows are the leaderboard's or a profile's rows carrying a reputation.
func rows(m map[string]any) []map[string]any {
	if _, ok := m["reputation"]; ok {
		return []map[string]any{m}
	}
	var out []map[string]any
	for _, k := range []string{"standings", "agents", "leaderboard"} {
		list, _ := m[k].([]any)
		for _, e := range list {
			if o, ok := e.(map[string]any); ok {
				out = append(out, o)
			}
		}
	}
	return out
}

// countsEveryPost sets the metrics' list_events to the number of peers
// POSTs seen, refreshes included: a counter bumped in the handler rather
// than on a new listing.
func countsEveryPost(h http.Handler) http.Handler {
	var mu sync.Mutex
	posts := 0
	return harness.Responses(h, func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if at(r, http.MethodPost, "/peers") && *st/100 == 2 && !strings.Contains(r.Header.Get("X-Slip-Remove"), "1") {
			posts++
		}
		if p, ok := m["peers"].(map[string]any); ok && at(r, http.MethodGet, "/metrics") {
			p["list_events"] = posts
		}
	})
}

// echoesLastCombine repeats the last refused combine's submissions (other
// agents' shares among them) on every status read: a "last attempt"
// debugging block.
func echoesLastCombine(h http.Handler) http.Handler {
	var mu sync.Mutex
	var last any
	return harness.Wrap(h, func(r *http.Request, body []byte) []byte {
		if at(r, http.MethodPost, "/combine") {
			var c struct{ Submissions any }
			if json.Unmarshal(body, &c) == nil {
				mu.Lock()
				last = c.Submissions
				mu.Unlock()
			}
		}
		return body
	}, func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if at(r, http.MethodGet, "/status") && last != nil && m["open"] == true {
			m["last_attempt"] = last
		}
	})
}

// mcpEdit lets answer take over an MCP POST whose JSON-RPC message it
// recognises; the rest reach h unchanged.
func mcpEdit(h http.Handler, answer func(w http.ResponseWriter, rpc map[string]any) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !at(r, http.MethodPost, "/mcp") {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var rpc map[string]any
		if json.Unmarshal(body, &rpc) == nil && answer(w, rpc) {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	})
}

// TestImplementerSlipsAreCaught: each realistic bug of slipCases, planted
// alone in front of the reference and served over loopback, fails its
// rule in a live run (over MCP for the MCP rules).
func TestImplementerSlipsAreCaught(t *testing.T) {
	t.Parallel()
	for _, c := range slipCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := bounty.Protocol()
			if strings.HasPrefix(c.rule, "BOUNTY-MCP-") {
				p = bounty.OverMCP()
			}
			if err := harness.Check(p, harness.Case{Name: c.name, Rule: c.rule, Target: platform(c.wrap), Checks: 3}); err != nil {
				t.Error(err)
			}
		})
	}
}

// showsKeyOnWin adds the master key the winning combine's shares
// reconstruct to its answer.
func showsKeyOnWin(h http.Handler) http.Handler {
	var mu sync.Mutex
	var pending [][]byte // the last combine's shares (the server trims the path it sees)
	return harness.Wrap(h, func(r *http.Request, body []byte) []byte {
		var c struct {
			Submissions []struct {
				ShareHex string `json:"share_hex"`
			} `json:"submissions"`
		}
		if at(r, http.MethodPost, "/combine") && json.Unmarshal(body, &c) == nil {
			var raw [][]byte
			for _, s := range c.Submissions {
				b, _ := hex.DecodeString(s.ShareHex)
				raw = append(raw, b)
			}
			mu.Lock()
			pending = raw
			mu.Unlock()
		}
		return body
	}, func(r *http.Request, st *int, m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if at(r, http.MethodPost, "/combine") && m["won"] == true {
			if key, err := rbounty.Combine(pending); err == nil {
				m["master_key_hex"] = hex.EncodeToString(key)
			}
		}
	})
}

// TestAWinningAnswerShowingTheKeyOnlyWarns: the seed leaves a winning
// combine's answer open (BOUNTY-REF-WIN-SECRETS), so a platform that
// shows the reconstructed key there gets a warning on that rule, and
// BOUNTY-NO-SECRETS still passes.
func TestAWinningAnswerShowingTheKeyOnlyWarns(t *testing.T) {
	t.Parallel()
	out, err := harness.Run(bounty.Protocol(), harness.Case{Name: "the key on a win", Rule: "BOUNTY-REF-WIN-SECRETS",
		Rules: []string{"BOUNTY-REF-WIN-SECRETS", "BOUNTY-NO-SECRETS"}, Target: platform(showsKeyOnWin)})
	if err != nil {
		t.Fatal(err)
	}
	warned := false
	for _, r := range out.Report.Results {
		switch {
		case r.Status == verdict.Fail || r.Status == verdict.Error:
			t.Errorf("%s: %s %s %s", r.Name, r.Status, r.FailedRule, r.Message)
		case r.Status == verdict.Warn && r.FailedRule == "BOUNTY-REF-WIN-SECRETS":
			warned = true
		}
	}
	if !warned || out.Report.ExitCode() != 0 {
		t.Errorf("want a BOUNTY-REF-WIN-SECRETS warning and exit 0, got exit %d:\n%s", out.Report.ExitCode(), out.Summary())
	}
}
