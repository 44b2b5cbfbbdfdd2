package pyyol

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// fallbackCount is a server.Referee that counts the turns the gateway
// settled with the fallback, per agent.
type fallbackCount struct {
	mu  sync.Mutex
	n   map[string]int
	why map[string][]string
}

func (c *fallbackCount) Fallback(agentID string, _ int, why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[agentID]++
	c.why[agentID] = append(c.why[agentID], why)
}

func (c *fallbackCount) Finished(string, goofspiel.Result) {}

func (c *fallbackCount) of(agentID string) (int, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[agentID], c.why[agentID]
}

// TestSDKShapedPythonAgentPlaysEveryGame: an agent speaking the official
// SDK's frames (testdata/sdk_agent.py, Python standard library only, its
// own WebSocket framing) plays Goofspiel, Mafia and Monopoly against the
// reference gateway with zero fallbacks: its handler, chosen by the turn
// view's game as the SDK chooses it, answers every turn, and the gateway
// took none of its turns over. Every frame the gateway sent it and every
// frame it sent validates against spec/pyyol/frames, its moves against
// their game's move schema.
func TestSDKShapedPythonAgentPlaysEveryGame(t *testing.T) {
	t.Parallel()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	count := &fallbackCount{n: map[string]int{}, why: map[string][]string{}}
	srv := httptest.NewServer(server.New(server.Options{Referee: count, PingEvery: 50 * time.Millisecond}))
	t.Cleanup(srv.Close) // after the parallel subtests
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + server.BasePath + "/agent/connect"
	for _, game := range []string{"goofspiel", "mafia", "monopoly"} {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			id, token := practiceKey(t, srv.URL)
			log := filepath.Join(t.TempDir(), "frames.jsonl")
			out := runSDKAgent(t, python, url, id, token, game, log)
			if out.Unhandled > 0 || out.Handled == 0 || out.Result == nil {
				t.Errorf("%s: %d turns handled, %d without a handler, result %v", game, out.Handled, out.Unhandled, out.Result)
			}
			if n, why := count.of(id); n > 0 {
				t.Errorf("%s: the gateway played %d fallbacks: %v", game, n, why)
			}
			validateFrameLog(t, log, game)
		})
	}
}

// sdkAgentOut is what sdk_agent.py prints.
type sdkAgentOut struct {
	Handled   int            `json:"handled"`
	Unhandled int            `json:"unhandled"`
	Events    int            `json:"events"`
	Result    map[string]any `json:"result"`
}

// runSDKAgent plays one match with the Python agent.
func runSDKAgent(t *testing.T, python, url, id, token, game, log string) sdkAgentOut {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "testdata/sdk_agent.py", url, id, token, game, log)
	cmd.Env = append(os.Environ(), "KIT_AGENT_HEARTBEAT=0.05", "KIT_AGENT_LINGER=5")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s agent: %v\n%s", game, err, stderr.String())
	}
	var out sdkAgentOut
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &out); err != nil {
		t.Fatalf("%s agent printed %q: %v", game, stdout.String(), err)
	}
	return out
}

// practiceKey mints a practice key at the reference (PYYOL-REF-PRACTICE-KEY).
func practiceKey(t *testing.T, base string) (string, string) {
	t.Helper()
	resp, err := http.Post(base+server.BasePath+"/practice/agents", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var k struct {
		AgentID string `json:"agent_id"`
		Token   string `json:"token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&k); err != nil || k.Token == "" {
		t.Fatalf("practice key: %v", err)
	}
	return k.AgentID, k.Token
}

// validateFrameLog checks every logged frame, both ways, against its
// schema, and every move against its game's move schema; a mismatch of
// any rule, the kit's own layout included, fails.
func validateFrameLog(t *testing.T, path, game string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	seen := map[string]int{}
	for sc.Scan() {
		var line struct {
			Dir   string          `json:"dir"`
			Frame json.RawMessage `json:"frame"`
		}
		var head struct {
			T       string          `json:"t"`
			ID      string          `json:"id"`
			Payload json.RawMessage `json:"payload"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || json.Unmarshal(line.Frame, &head) != nil {
			t.Fatalf("bad log line %s", sc.Text())
		}
		seen[line.Dir+" "+head.T]++
		if err := checkFrameOf(line.Frame, head.T, game); err != nil {
			t.Errorf("%s %s: %v", line.Dir, head.T, err)
		}
		if head.T == "response" && strings.HasPrefix(head.ID, "turn_") && head.Payload != nil {
			if err := checkPart(game+"-move", head.Payload, "", "a "+game+" move"); err != nil {
				t.Errorf("move %s: %v", head.Payload, err)
			}
		}
	}
	for _, want := range []string{"in hello", "in registered", "in initialize", "in game_end", "in ping", "out register", "out response", "out ping", "out pong"} {
		if seen[want] == 0 {
			t.Errorf("no %q frame in the match: %v", want, seen)
		}
	}
}
