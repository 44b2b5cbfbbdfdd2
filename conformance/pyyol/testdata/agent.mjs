// A Pyyol agent written only from the docs' frame tables (local-runtime.md
// "The socket protocol", games.md "Goofspiel"), with nothing but Node's own
// WebSocket and fetch. It mints a practice key at the kit's documented
// endpoint, registers, answers initialize and every turn, keeps events in
// seq order, and exits 0 at game_end after printing the result as JSON.
//
// usage: node --experimental-websocket agent.mjs ws://HOST/v1/agent/connect

const url = process.argv[2];
const httpBase = url.replace(/^ws/, "http").replace(/\/agent\/connect$/, "");

const key = await (await fetch(httpBase + "/practice/agents", {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ name: "node-docs-agent" }),
})).json();

const ws = new WebSocket(url);
const send = (frame) => ws.send(JSON.stringify(frame));
let lastSeq = 0;
let registered = false;
const fail = (why) => { console.error("FAIL: " + why); process.exit(1); };
const timer = setTimeout(() => fail("no game_end within 60 s"), 60000);

// The simple value-matching strategy of games.md's example: bid the prize
// card if still held, else the lowest card.
function decide(v) {
  const card = v.legal_actions.includes(v.current_prize) ? v.current_prize : Math.min(...v.legal_actions);
  return { round: v.round, card };
}

ws.onmessage = (msg) => {
  const f = JSON.parse(msg.data);
  switch (f.t) {
    case "hello":
      if (f.version !== "1.0") fail("hello version " + f.version);
      send({ t: "register", agent_id: key.agent_id, token: key.token, agent_name: "node-docs-agent",
             version: "1.0.0", games: ["goofspiel"], sdk_version: "docs-only" });
      break;
    case "registered":
      registered = true;
      send({ t: "ping" });
      break;
    case "error":
      fail("gateway error " + f.error);
      break;
    case "ping":
      send({ t: "pong", id: f.id ?? "" });
      break;
    case "initialize":
      send({ t: "response", id: f.id, ready: true, payload: { ready: true } });
      break;
    case "turn": {
      // The docs fix that a turn carries the view, not where: payload or view.
      const v = f.payload ?? f.view;
      if (JSON.stringify(v.legal_actions) !== JSON.stringify(v.your_hand)) fail("legal_actions differs from your_hand");
      const move = decide(v);
      send({ t: "response", id: f.id, payload: move, move });
      break;
    }
    case "event":
      if (f.seq <= lastSeq) fail("event seq " + f.seq + " after " + lastSeq);
      lastSeq = f.seq;
      break;
    case "game_end":
      clearTimeout(timer);
      if (!registered) fail("game_end before registered");
      const result = f.payload ?? f.result;
      console.log(JSON.stringify({ winner: result.winner, scores: result.scores, rounds: result.history.length }));
      ws.close();
      process.exit(0);
  }
};
ws.onerror = () => fail("socket error");
