package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentgames/conformance/reference/pyyol/server"
)

// TestAFrameOutsideThePolicyIsNoFrame: a register frame sent as binary,
// with invalid UTF-8 or with a repeated key is read as no frame at all
// (the gateway answers register_first and registers nobody), while the
// same register as a clean text frame registers (reference/skeleton
// CheckFrame).
func TestAFrameOutsideThePolicyIsNoFrame(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(server.New(server.Options{}))
	defer srv.Close()
	id, token, err := key(srv.URL)
	require.NoError(t, err)
	register := fmt.Sprintf(`{"t":"register","agent_id":%q,"token":%q,"agent_name":"go-test","version":"1.0.0","games":["goofspiel"],"sdk_version":"test","matches":1`, id, token)
	frames := map[string]struct {
		typ  websocket.MessageType
		data string
	}{
		"binary":        {websocket.MessageBinary, register + "}"},
		"invalid UTF-8": {websocket.MessageText, register + ",\"note\":\"caf\xe9\"}"},
		"repeated key":  {websocket.MessageText, register + `,"t":"ping"}`},
	}
	ctx, cancel := timeout()
	defer cancel()
	for name, f := range frames {
		assert.Equal(t, "register_first", answerTo(ctx, t, srv.URL, f.typ, f.data)["error"], name)
	}
	assert.Equal(t, "registered", answerTo(ctx, t, srv.URL, websocket.MessageText, register+"}")["t"], "the clean frame registers")
}

// answerTo dials the gateway, reads hello, sends one frame and returns
// the gateway's next frame.
func answerTo(ctx context.Context, t *testing.T, base string, typ websocket.MessageType, data string) map[string]any {
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+server.BasePath+"/agent/connect", nil)
	require.NoError(t, err)
	defer conn.CloseNow()
	_, _, err = conn.Read(ctx) // hello
	require.NoError(t, err)
	require.NoError(t, conn.Write(ctx, typ, []byte(data)))
	_, raw, err := conn.Read(ctx)
	require.NoError(t, err)
	var f map[string]any
	require.NoError(t, json.Unmarshal(raw, &f))
	return f
}
