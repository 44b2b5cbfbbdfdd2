package pyyol

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/reference/pyyol/server"
)

// officialSDK returns python3 when the official Pyyol SDK and the
// websockets library it dials with are importable (pip install pyyol
// websockets, or PYTHONPATH), and skips the test otherwise: the SDK is
// not vendored, so where it cannot be installed the SDK-shaped stand-ins
// (testdata/sdk_agent.py, sdk_push_server.py) carry the same checks.
func officialSDK(t *testing.T) string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	_ = os.Getenv("PYTHONPATH") // the test cache keys on where Python looks
	probe := exec.Command(python, "-c", "import pyyol.runtime, pyyol.server, pyyol.models, websockets.sync.client")
	if out, err := probe.CombinedOutput(); err != nil {
		t.Skipf("the official Pyyol SDK is not installed (pip install pyyol websockets): %s", strings.TrimSpace(lastLine(string(out))))
	}
	return python
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// TestOfficialSDKPlaysEveryGame: the official SDK, unchanged
// (examples/official-sdk/play.py drives its Agent and RuntimeConnector),
// plays Goofspiel, Mafia and Monopoly against the reference gateway to
// game_end with its own typed handler answering every turn, and the
// gateway took none of its turns over.
func TestOfficialSDKPlaysEveryGame(t *testing.T) {
	python := officialSDK(t)
	count := &fallbackCount{n: map[string]int{}, why: map[string][]string{}}
	srv := httptest.NewServer(server.New(server.Options{Referee: count, PingEvery: 50 * time.Millisecond}))
	t.Cleanup(srv.Close)
	for _, game := range []string{"goofspiel", "mafia", "monopoly"} {
		t.Run(game, func(t *testing.T) {
			out, err := exec.Command(python, "../../examples/official-sdk/play.py", srv.URL+server.BasePath, game).Output()
			var got struct {
				Counted    bool `json:"frames_counted"`
				TurnFrames int  `json:"turn_frames"`
				Handled    int  `json:"handled"`
				GameEnd    bool `json:"game_end"`
				Fallbacks  int  `json:"fallbacks"`
			}
			if jerr := json.Unmarshal(out, &got); jerr != nil || err != nil {
				t.Fatalf("play.py %s: %v %v: %s", game, err, jerr, out)
			}
			if !got.GameEnd || got.Handled == 0 || got.Counted && got.Handled != got.TurnFrames || got.Fallbacks != 0 {
				t.Errorf("%s: %+v", game, got)
			}
		})
	}
	count.mu.Lock()
	defer count.mu.Unlock()
	for id, n := range count.n {
		if n > 0 {
			t.Errorf("the gateway played %d fallbacks for %s: %v", n, id, count.why[id])
		}
	}
}

// OfficialSDK is officialSDK for the external test package.
var OfficialSDK = officialSDK
