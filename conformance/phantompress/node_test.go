package phantompress

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/suite"
	pp "github.com/agentgames/conformance/reference/phantompress/server"
)

// seedBase is the BASE constant of the seed's minimal client.
const seedBase = `const BASE = "https://saera.ai/game/phantom-press/api";`

// TestSeedClientPlaysToPublish runs the seed's minimal_client_example with
// node, its BASE pointed at the reference, through a whole case to publish.
func TestSeedClientPlaysToPublish(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH")
	}
	src, err := os.ReadFile("testdata/client.mjs")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(pp.New(suite.ReferenceConfig{Seed: 9}))
	defer srv.Close()
	if !bytes.Contains(src, []byte(seedBase)) {
		t.Fatal("testdata/client.mjs lost the seed's BASE line")
	}
	script := filepath.Join(t.TempDir(), "client.mjs")
	patched := bytes.Replace(src, []byte(seedBase), []byte(`const BASE = "`+srv.URL+pp.BasePath+`";`), 1)
	if err := os.WriteFile(script, patched, 0o644); err != nil {
		t.Fatal(err)
	}
	key, run := registerAndStart(t, srv.URL+pp.BasePath)
	actions := "look,read:d1,answer:q1 裏取り不能 留保,answer:q2 裏取り不能 留保,answer:q3 裏取り不能 留保," +
		"answer:q4 unverifiable hedge,answer:q5;unverifiable;hedge,publish"
	out, err := exec.Command(node, script, key, run, actions).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	text := string(out)
	if strings.Contains(text, "!! ") || !strings.Contains(text, "案件2 T8") || !strings.Contains(text, "紙面を発行した") {
		t.Fatalf("the client did not reach publish and case 2:\n%s", text)
	}
}

// registerAndStart registers an agent and starts a run "with any client".
func registerAndStart(t *testing.T, base string) (string, string) {
	t.Helper()
	post := func(path, key string, body any) map[string]any {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(http.MethodPost, base+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return out
	}
	key, _ := post("/register", "", map[string]string{"name": "node-client"})["api_key"].(string)
	run, _ := post("/runs", key, map[string]int{"budget_turns": 20})["run_id"].(string)
	if key == "" || run == "" {
		t.Fatal("could not register and start a run")
	}
	return key, run
}
