package oas_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRepeatedAnswersKeepTheirVerdicts checks the cache of answers that
// matched: a repeat of a matching answer still passes, a mismatch fails
// every time it comes, and an answer that matched under one operation or
// status earns nothing under another.
func TestRepeatedAnswersKeepTheirVerdicts(t *testing.T) {
	v := load(t)
	for range 3 {
		assert.NoError(t, check(v, "GET", "/game/api/runs/r1", 200, `{"run_id":"r1"}`))
		require.Error(t, check(v, "GET", "/game/api/runs/r1", 200, `{"run_id":7}`))
		assert.Equal(t, "T-RUN-SHAPE", failedRule(t, check(v, "GET", "/game/api/runs/r1", 200, `{"run_id":7}`)))
	}
	assert.NoError(t, check(v, "GET", "/game/api/runs/recent", 200, `[{}]`))
	require.Error(t, check(v, "GET", "/game/api/runs/r1", 200, `[{}]`), "matched under another operation only")
	assert.NoError(t, check(v, "GET", "/game/api/runs/r1", 404, `{"code":"NOT_FOUND"}`))
	require.Error(t, check(v, "GET", "/game/api/runs/r1", 500, `{"code":"NOT_FOUND"}`), "matched under another status only")
}

// TestRoutesMatchWholeSegments checks the allocation-free route matching:
// a path matches a template only segment for segment, and a literal
// beats a parameter.
func TestRoutesMatchWholeSegments(t *testing.T) {
	v := load(t)
	for path, want := range map[string]bool{
		"/game/api/runs/r1": true, "/game/api/runs/r1/": true, "/game/api/runs/recent": true,
		"/game/api/runs": false, "/game/api/runs/r1/x": false, "/game/api/run/r1": false,
		"/game/api": false, "/game/api/runs//x": false, "/other/runs/r1": false,
	} {
		_, ok := v.Route("GET", path)
		assert.Equal(t, want, ok, path)
	}
	got, _ := v.Route("GET", "/game/api/runs/recent")
	assert.Equal(t, "GET /game/api/runs/recent", got)
	got, _ = v.Route("GET", "/game/api/runs/r9")
	assert.Equal(t, "GET /game/api/runs/{id}", got)
}
