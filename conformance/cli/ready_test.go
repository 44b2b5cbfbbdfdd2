package cli_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commandDir is a folder holding `conformance`: this test binary started
// as the command (asCommand), for scripts and background processes.
func commandDir(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	require.NoError(t, err)
	dir := t.TempDir()
	script := "#!/bin/sh\n" + asCommand + "=1 exec '" + self + "' \"$@\"\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "conformance"), []byte(script), 0o755))
	return dir
}

// freePort is a loopback port nothing listens on now.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// TestTheREADMECIRecipeRuns runs the README's one-machine CI recipe (the
// sh block of "CI: baselines, shards, merge") as written, with the
// command on PATH and PORT set: serve in the background, wait for it,
// three shards, merge. It used to start the run while serve was starting.
func TestTheREADMECIRecipeRuns(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	m := regexp.MustCompile("(?s)`TestTheREADMECIRecipeRuns`.*?```sh\n(.*?)```").FindSubmatch(readme)
	require.NotNil(t, m, "the README's CI recipe")
	recipe := string(m[1])
	require.Contains(t, recipe, "conformance wait")
	work := t.TempDir()
	cmd := exec.Command("bash", "-c", recipe)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PATH="+commandDir(t)+string(os.PathListSeparator)+os.Getenv("PATH"), "PORT="+freePort(t))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "RESULT: PASS (exit 0)")
	for _, f := range []string{"shard-1.json", "shard-2.json", "shard-3.json", "r.xml", "r.html"} {
		assert.FileExists(t, filepath.Join(work, f))
	}
}

// TestServeReadyFileAndWait: serve --ready-file writes the served URL once
// it answers and removes the file when it stops; wait returns once a URL
// answers and exits 2 naming it when none does in time.
func TestServeReadyFileAndWait(t *testing.T) {
	t.Parallel()
	ready := filepath.Join(t.TempDir(), "serve.ready")
	serve := exec.Command(filepath.Join(commandDir(t), "conformance"), "serve", "--addr", "127.0.0.1:0", "--protocol", "iyra",
		"--seed", "7", "--ready-file", ready)
	require.NoError(t, serve.Start())
	defer serve.Process.Kill()
	var url string
	for deadline := time.Now().Add(time.Minute); url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if raw, err := os.ReadFile(ready); err == nil {
			url = strings.TrimSpace(string(raw))
		}
	}
	require.True(t, strings.HasPrefix(url, "http://127.0.0.1:"), "ready file holds %q", url)
	resp, err := http.Get(url + "/api/v5/tasks/play")
	require.NoError(t, err, "serve answers once the ready file is there")
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	code, out, errOut := run("wait", url+"/", "--timeout", "5s")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, url+"/ answers")

	require.NoError(t, serve.Process.Signal(syscall.SIGTERM))
	_ = serve.Wait()
	assert.NoFileExists(t, ready, "serve removes its ready file when it stops")

	code, _, errOut = run("wait", url+"/", "--timeout", "300ms")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "conformance wait: "+url+"/ did not answer within 300ms (last try:")
	code, _, errOut = run("wait", "127.0.0.1:8080")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "is not an http(s) URL")
}

// TestWaitTakesAnUnavailableAnswerForNotYet: a 503 (a proxy, a server
// still starting) is not an answer; the wait ends once the URL answers
// anything else, a 404 included.
// The first wait is given 2 s, not less, so that a loaded machine still
// makes a try (and reads the 503) before the wait ends.
func TestWaitTakesAnUnavailableAnswerForNotYet(t *testing.T) {
	t.Parallel()
	var up atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !up.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	code, _, errOut := run("wait", srv.URL, "--timeout", "2s")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "(last try: answered 503)")
	time.AfterFunc(200*time.Millisecond, func() { up.Store(true) })
	code, _, errOut = run("wait", srv.URL, "--timeout", "20s", "--quiet")
	assert.Equal(t, 0, code, errOut)
}
