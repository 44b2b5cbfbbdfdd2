#!/usr/bin/env node
// A small Echoes of Iyra agent in plain Node.js (18+, no npm packages),
// played against `conformance serve --faults ... --audit DIR`.
//
//   node iyra-agent.mjs http://127.0.0.1:8080            # a well-behaved agent
//   node iyra-agent.mjs http://127.0.0.1:8080 --rude     # ignores Retry-After, retries under fresh keys
//
// It registers (proof of work), takes its assignment, then plays a few
// short sessions. The polite agent follows the contract's rules for
// agents: on a 429 it waits out retry_after_seconds and repeats a creation
// under the same Idempotency-Key; after a refused or uncertain action it
// reads the session before acting again. The rude one does neither.
import { createHash, randomUUID } from "node:crypto";

const [base, flag] = process.argv.slice(2);
const rude = flag === "--rude";
const api = base.replace(/\/$/, "") + "/api/v5";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function call(method, path, { key, body, headers = {} } = {}) {
  const h = { "Content-Type": "application/json", ...headers };
  if (key) h.Authorization = `Bearer ${key}`;
  const res = await fetch(api + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json = {};
  try { json = JSON.parse(text); } catch {}
  return { status: res.status, json, retryAfter: Number(res.headers.get("Retry-After") ?? 0) };
}

// waitHint is how long a 429 asks to wait, in milliseconds.
const waitHint = (r) => 1000 * Math.max(r.json.retry_after_seconds ?? 0, r.retryAfter, 1);

// register accepts, proves and verifies; a challenge that expired before
// its proof arrived (422 challenge_expired, or expires_at already past)
// is simply accepted again.
async function register() {
  for (let attempt = 0; attempt < 5; attempt++) {
    const acc = await call("POST", "/tasks/play/accept", {
      body: { name: rude ? "rude-node" : "polite-node", model: "node-example", capabilities: ["http"], campaign: "challenge-play-w1" },
    });
    const { agent_id, challenge_id, challenge, difficulty, expires_at } = acc.json;
    if (Date.parse(expires_at) <= Date.now()) continue; // expired on arrival: no proof can make it
    const zeros = "0".repeat(difficulty);
    let n = 0;
    while (!createHash("sha256").update(challenge + n).digest("hex").startsWith(zeros)) n++;
    const ver = await call("POST", "/agents/verify", { body: { agent_id, challenge_id, solution: String(n) } });
    if (ver.json.api_key) return ver.json.api_key;
    if (ver.json.code !== "challenge_expired") throw new Error(`verification refused: ${ver.status} ${JSON.stringify(ver.json)}`);
  }
  throw new Error("every challenge expired before its proof arrived");
}

// createSession creates one session, retrying a refused creation.
async function createSession(key, version) {
  let idem = "node-" + randomUUID();
  for (let attempt = 0; attempt < 6; attempt++) {
    const r = await call("POST", "/store/echoes-of-iyra/sessions", {
      key, headers: { "Idempotency-Key": idem }, body: { ready_to_act: true, accepted_version_id: version },
    });
    if (r.status === 200 || r.status === 201) return r.json;
    if (r.status !== 429 && r.status < 500) throw new Error(`creation refused: ${r.status} ${JSON.stringify(r.json)}`);
    if (rude) {
      idem = "node-" + randomUUID(); // a fresh key and no wait: both break the contract
    } else {
      await sleep(r.status === 429 ? waitHint(r) : 1000); // same key, after the hint
    }
  }
  return null;
}

// act plays a few actions, each with the latest revision beside it.
async function act(key, session) {
  let state = session;
  const moves = [{ type: "investigate", site: "archive" }, { type: "investigate", site: "harbor" }, { type: "investigate", site: "spire" }];
  for (const action of moves) {
    if (state.terminal) return;
    let r = await call("POST", state.actions_url.replace(/^\/api\/v5/, ""), { key, body: { revision: state.revision, action } });
    if (r.status === 429 || r.status === 409 || r.status === 422 || r.status >= 500) {
      if (rude) {
        r = await call("POST", state.actions_url.replace(/^\/api\/v5/, ""), { key, body: { revision: state.revision, action } });
      } else {
        if (r.status === 429) await sleep(waitHint(r));
        r = await call("GET", state.state_url.replace(/^\/api\/v5/, ""), { key }); // read, then decide anew
      }
    }
    if (r.status === 200 || r.status === 201) state = r.json;
  }
}

const key = await register();
const assignment = await call("GET", "/store/echoes-of-iyra/assignment", { key });
for (let i = 0; i < 4; i++) {
  const session = await createSession(key, assignment.json.version_id);
  if (session) await act(key, session);
}
console.log(rude ? "rude agent done" : "polite agent done");
