package bounty_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agentgames/conformance/conformance/bounty"
	"github.com/agentgames/conformance/conformance/suite"
	harness "github.com/agentgames/conformance/conformance/tamper"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/bounty/server"
)

// The faithful neighbours of slipCases (broken_slips_test.go;
// docs/detection.md): the readings the seed leaves open beside each
// round's slips, which must pass.

// faithfulNeighbour is a legal reading next to the slips above: run on
// its rules it must fail and err nothing.
type faithfulNeighbour struct {
	name  string
	rules []string
	wrap  func(h http.Handler) http.Handler
}

// faithfulNeighbours take choices the seed leaves open: share_hex in
// upper case, a bad reconstruction refused with 400 (the seed fixes 409
// for unearned_share only), expires_in_s in whole seconds, board entries
// with more fields and in reverse order, a winning answer that repeats
// the shares it was sent; round 3: fields the seed does not fix (the
// board's ttl_s, a closed status's live_challenge_id, a solve's echoed
// share_index, rounds_completed counted from the open round).
func faithfulNeighbours() []faithfulNeighbour {
	return []faithfulNeighbour{
		{"share_hex in upper case", []string{"BOUNTY-SOLVE-SHARE", "BOUNTY-NO-SECRETS", "BOUNTY-HOLDINGS"}, func(h http.Handler) http.Handler {
			return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
				if s, ok := m["share_hex"].(string); ok && at(r, http.MethodPost, "/solve") {
					m["share_hex"] = strings.ToUpper(s)
				}
			})
		}},
		{"a bad reconstruction refused with 400", []string{"BOUNTY-RECONSTRUCT", "BOUNTY-METRICS-COUNTS"}, recode("bad_reconstruction", 400, "bad_reconstruction")},
		{"expires_in_s in whole seconds, entries reversed with more fields", []string{"BOUNTY-PEERS-TTL", "BOUNTY-PEERS-REFRESH", "BOUNTY-HOLDINGS", "BOUNTY-PROXIMITY"}, func(h http.Handler) http.Handler {
			return harness.Responses(h, func(r *http.Request, _ *int, m map[string]any) {
				list := entries(r, m)
				out := make([]any, 0, len(list))
				for i := len(list) - 1; i >= 0; i-- {
					e := list[i]
					if f, ok := e["expires_in_s"].(float64); ok {
						e["expires_in_s"] = float64(int(f))
					}
					e["listed_via"] = "http"
					out = append(out, e)
				}
				if len(list) > 0 {
					m["peers"] = out
				}
			})
		}},
		{"a winning answer repeats the shares it was sent", []string{"BOUNTY-NO-SECRETS", "BOUNTY-REF-WIN-SECRETS", "BOUNTY-PAYOUT"}, func(h http.Handler) http.Handler {
			var mu sync.Mutex
			var sent any
			return harness.Wrap(h, func(r *http.Request, body []byte) []byte {
				var c struct{ Submissions any }
				if at(r, http.MethodPost, "/combine") && json.Unmarshal(body, &c) == nil {
					mu.Lock()
					sent = c.Submissions
					mu.Unlock()
				}
				return body
			}, func(r *http.Request, _ *int, m map[string]any) {
				mu.Lock()
				defer mu.Unlock()
				if at(r, http.MethodPost, "/combine") && m["won"] == true {
					m["accepted_submissions"] = sent
				}
			})
		}},
		// Round 2 (docs/detection.md).
		{"intents list every share, unclaimed ones empty", []string{"BOUNTY-INTENT", "BOUNTY-PEERS-DELIST"}, unclaimedSharesListed},
		{"a registration answered with a notice and the pow_bits it met", []string{"BOUNTY-REG-POW", "BOUNTY-REG-SECRET"}, registrationNotice},
		{"standings carry their rank and name", []string{"BOUNTY-LEADERBOARD"}, standingsRanked},
		// Round 3 (docs/detection.md): planted as slips, but the seed fixes none of these fields.
		{"the board's ttl_s in minutes", []string{"BOUNTY-PEERS-TTL", "BOUNTY-PEERS-LIST"}, answers(http.MethodGet, "/peers", func(m map[string]any) { m["ttl_s"] = 30 })},
		{"a closed round's live_challenge_id names itself", []string{"BOUNTY-ROTATION", "BOUNTY-CLOSED-READABLE"}, answers(http.MethodGet, "/status", staleLiveID)},
		{"a solve answers a zero-based share_index beside share_hex", []string{"BOUNTY-SOLVE-SHARE", "BOUNTY-HOLDINGS"}, answers(http.MethodPost, "/solve", shareIndexZeroBased)},
		{"the discovery's rounds_completed counts the open round", []string{"BOUNTY-ROUNDS-COMPLETED"}, answers(http.MethodGet, ".json", completedCountsOpen)},
		// Round 4 (docs/detection.md): a media type's spelling, a charset the seed leaves open.
		{"MCP answers typed Application/JSON; charset=UTF-8, keys reversed", []string{"BOUNTY-MCP-FLOW", "BOUNTY-MCP-TOOLS", "BOUNTY-MCP-VERSIONS", "BOUNTY-MCP-SAME-STATE"}, mcpTypedLoudly},
		{"MCP answers as a one-event text/event-stream", []string{"BOUNTY-MCP-FLOW", "BOUNTY-MCP-TOOLS", "BOUNTY-MCP-VERSIONS", "BOUNTY-MCP-SAME-STATE"}, mcpAsEventStream},
		{"profile names limited to ASCII letters, digits, - and _", []string{"BOUNTY-PROFILE-NAME"}, asciiNamesOnly},
		// Round 5 (docs/detection.md): what JSON-RPC and JSON Schema leave free.
		{"an unknown method's -32601 error with data and another message", []string{"BOUNTY-MCP-FLOW"}, unknownMethods(errorWithData)},
		{"inputSchemas with $schema and additionalProperties false", []string{"BOUNTY-MCP-TOOLS", "BOUNTY-MCP-FLOW"}, mcpAnswers(richSchemas)},
		// Round 6 (docs/detection.md): a metrics layout and a refusal's fields the seed leaves open.
		{"metrics list every combine refusal code, 0 for those never seen", []string{"BOUNTY-METRICS-COUNTS", "BOUNTY-METRICS"}, answers(http.MethodGet, "/metrics", everyCodeListed)},
		{"a refused solve answered with a hint and a null share_hex", []string{"BOUNTY-NO-SECRETS", "BOUNTY-SOLVE-SHARE"}, refusalNamesItsShare},
		// Round 7 (docs/detection.md): a refusal's headers and body, a commitment that is not the key.
		{"GET /mcp answered 405 with Allow: POST and a JSON-RPC error body", []string{"BOUNTY-MCP-GET"}, mcpGetRefusedLoudly},
		{"the live status shows the master key's sha256 commitment, base64 and hex", []string{"BOUNTY-NO-SECRETS"}, keyCommitted},
		// Round 8 (docs/detection.md): a refusal's status and code, a notification's headers.
		{"a profile edit refused for its secret answered 401 with its own code", []string{"BOUNTY-PROFILE-SECRET"}, secretRefusedAs401},
		{"a notification answered 202 with a Content-Type and Content-Length: 0", []string{"BOUNTY-MCP-NOTIFY"}, notificationsWithHeaders},
		// Round 9 (docs/detection.md): spellings of hex the seed leaves open.
		{"a plaintext_hex in capital hex digits refused", []string{"BOUNTY-PUZZLE-DECODE"}, capitalPlaintextsRefused},
		{"a nonce_hex of an odd number of digits refused", []string{"BOUNTY-PUZZLE-HASH"}, oddNoncesRefused},
	}
}

// TestFaithfulNeighboursOfTheSlipsPass: each legal reading, on its rules
// alone, fails, warns and errs nothing, and decides at least one check.
func TestFaithfulNeighboursOfTheSlipsPass(t *testing.T) {
	t.Parallel()
	for _, v := range faithfulNeighbours() {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(platform(v.wrap))
			defer srv.Close()
			rep := harness.Faithful(t, suite.Config{Protocols: []*suite.Protocol{bounty.Protocol()}, Rules: v.rules,
				Target: srv.URL + server.BasePath, Seed: 11, NoProperties: true}, 1)
			for _, r := range rep.Results {
				if r.Status == verdict.Warn {
					t.Errorf("%s: warned %s %s", r.Name, r.FailedRule, r.Message)
				}
			}
		})
	}
}
