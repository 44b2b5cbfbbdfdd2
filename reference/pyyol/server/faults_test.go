package server_test

import (
	"bytes"
	"context"
	"errors"
	"log"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/faults"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// TestEveryTurnMeetsADocumentedFaultAtRateOne plays a Goofspiel match
// against a gateway injecting its documented faults at every turn: the
// socket drops (no close frame) or is closed 4000 superseded, or the turn
// is settled late; the agent reconnects after each close, every turn takes
// the fallback (the lowest card, so 1..13 in order) and the match still
// ends with game_end. Each injection is logged with its rule.
func TestEveryTurnMeetsADocumentedFaultAtRateOne(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	ref := &finishes{done: make(chan goofspiel.Result, 4)}
	g := server.New(server.Options{TurnTimeout: 500 * time.Millisecond, Referee: ref})
	srv := httptest.NewServer(faults.Wrap(g, server.Faults(), faults.Options{Rate: 1, Seed: 1, Base: server.BasePath, Log: log.New(&logs, "", 0)}))
	defer srv.Close()
	id, token, err := key(srv.URL)
	require.NoError(t, err)
	ctx, cancel := timeout()
	defer cancel()
	closes := map[websocket.StatusCode]int{}
	var res *goofspiel.Result
	for res == nil {
		a, err := dialAgent(ctx, srv.URL, id, token, 1)
		require.NoError(t, err)
		err = a.play(ctx, 1)
		a.close()
		var ce websocket.CloseError
		if errors.As(err, &ce) {
			assert.Equal(t, server.SupersededReason, ce.Reason)
		}
		if err != nil {
			closes[websocket.CloseStatus(err)]++
		}
		select {
		case r := <-ref.done:
			res = &r
		case <-ctx.Done():
			t.Fatal("the match never finished")
		default:
		}
	}
	for code := range closes {
		assert.Contains(t, []websocket.StatusCode{-1, server.SupersededCode}, code, "a socket ends by a drop or as superseded")
	}
	assert.Positive(t, closes[-1], "a dropped socket")
	assert.Positive(t, closes[server.SupersededCode], "a superseded socket")
	require.Len(t, res.History, 13)
	for n, r := range res.History {
		assert.Equal(t, n+1, r.Cards[0], "round %d took the fallback, the lowest card", n)
	}
	for _, want := range []string{"fault injected: PYYOL-WS-FALLBACK-TIMEOUT late_turn WS /v1/agent/connect turn_",
		"fault injected: PYYOL-WS-FALLBACK-DISCONNECT dropped_socket", "fault injected: PYYOL-REF-SUPERSEDED superseded_socket"} {
		assert.Contains(t, logs.String(), want)
	}
}

// finishes is a Referee that hands over each finished match.
type finishes struct{ done chan goofspiel.Result }

func (f *finishes) Fallback(string, int, string) {}

func (f *finishes) Finished(_ string, res goofspiel.Result) { f.done <- res }

// TestASecondRegistrationSupersedesTheFirst: the older socket of an agent
// that registers again is closed 4000 superseded (PYYOL-REF-SUPERSEDED) and
// the match goes on over the new one.
func TestASecondRegistrationSupersedesTheFirst(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(server.New(server.Options{}))
	defer srv.Close()
	id, token, err := key(srv.URL)
	require.NoError(t, err)
	ctx, cancel := timeout()
	defer cancel()
	first, err := dialAgent(ctx, srv.URL, id, token, 1)
	require.NoError(t, err)
	f, err := first.read(ctx) // the match started: the first socket is attached
	require.NoError(t, err)
	require.Equal(t, "initialize", f["t"])
	second, err := dialAgent(ctx, srv.URL, id, token, 1)
	require.NoError(t, err)
	defer second.close()
	readCtx, stop := context.WithTimeout(ctx, 5*time.Second)
	defer stop()
	var closeErr error
	for closeErr == nil {
		_, closeErr = first.read(readCtx)
	}
	assert.Equal(t, server.SupersededCode, websocket.CloseStatus(closeErr), "%v", closeErr)
	require.NoError(t, second.play(ctx, 1))
}
