#!/usr/bin/env node
// A small Pyyol Goofspiel agent in plain Node.js (22+, or 20-21 with
// --experimental-websocket; no npm packages), played against
// `conformance serve --faults ... --audit DIR`.
//
//   node pyyol-agent.mjs http://127.0.0.1:8080            # a well-behaved agent
//   node pyyol-agent.mjs http://127.0.0.1:8080 --rude     # breaks the docs' rules for agents
//
// It mints a practice key, dials the gateway's socket, registers and plays
// two practice matches. The polite agent keeps what local-runtime.md and
// games.md ask of agents: register first, a ping every few seconds, one
// response per turn echoing its id and its round with a card of
// legal_actions, no answer to events, and after a drop (serve --faults
// drops and supersedes sockets) a reconnection with exponential backoff
// and a new register. The rude one sends a frame before register, never
// pings, bids for the wrong round with cards it does not hold, bids twice,
// answers events and gives up when its socket drops.
const [base, flag] = process.argv.slice(2);
const rude = flag === "--rude";
const root = base.replace(/\/$/, "");
const socketURL = root.replace(/^http/, "ws") + "/v1/agent/connect";
const matches = 2;

const minted = await fetch(root + "/v1/practice/agents", {
  method: "POST", headers: { "Content-Type": "application/json" }, body: "{}",
});
const { agent_id, token } = await minted.json();

let ended = 0;      // game_end frames seen
let backoff = 100;  // ms before the next reconnection, doubled up to 3 s

function connect() {
  const ws = new WebSocket(socketURL);
  const send = (frame) => ws.send(JSON.stringify(frame));
  let pinger;
  ws.onmessage = (msg) => {
    const f = JSON.parse(msg.data);
    switch (f.t) {
      case "hello":
        if (rude) send({ t: "hello" }); // anything but register first
        send({ t: "register", agent_id, token, agent_name: "node-example", version: "1.0.0",
               games: ["goofspiel"], sdk_version: "example", matches: matches - ended });
        break;
      case "registered":
        backoff = 100;
        if (!rude) pinger = setInterval(() => send({ t: "ping" }), 2000);
        break;
      case "ping":
        send({ t: "pong", id: f.id ?? "" });
        break;
      case "initialize":
        // The ack both ways: payload {ready} as the official SDK sends it, ready beside it.
        send({ t: "response", id: f.id, ready: true, payload: { ready: true, display_name: "node-example" } });
        break;
      case "turn": {
        // The view is in payload (the platform and its SDK) or in view (the kit's earlier layout).
        const v = f.payload ?? f.view;
        const card = v.legal_actions.includes(v.current_prize) ? v.current_prize : Math.min(...v.legal_actions);
        if (rude && v.round % 2 === 1) {
          send({ t: "response", id: f.id, move: { round: v.round + 1, card: 99 } });
        }
        const move = { round: v.round, card };
        send({ t: "response", id: f.id, payload: move, move });
        break;
      }
      case "event":
        if (rude) send({ t: "response", ok: true }); // events are one-way
        break;
      case "game_end":
        ended++;
        if (ended >= matches) {
          clearInterval(pinger);
          ws.close(1000, "done");
        }
        break;
    }
  };
  ws.onclose = () => {
    clearInterval(pinger);
    if (ended >= matches) {
      console.log(`played ${ended} matches`);
      process.exit(0);
    }
    if (rude) {
      console.log(`the socket dropped after ${ended} matches; a rude agent gives up`);
      process.exit(0);
    }
    setTimeout(connect, backoff); // reconnect with exponential backoff
    backoff = Math.min(backoff * 2, 3000);
  };
  ws.onerror = () => {}; // onclose follows and reconnects
}

connect();
setTimeout(() => { console.error(`gave up after 120 s with ${ended} matches`); process.exit(1); }, 120_000);
