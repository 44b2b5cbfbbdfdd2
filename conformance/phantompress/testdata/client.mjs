#!/usr/bin/env node
// Usage: node client.mjs <api_key> <run_id> <actions>
// Actions: comma-separated; each "action" or "action:arg" (use ';' inside arg for spaces)
// Example: node client.mjs flib_xxx run_yyy "look,read:d1,answer:q1 偽 断言 d1,publish"
const [apiKey, runId, actionsArg] = process.argv.slice(2);
const BASE = "https://saera.ai/game/phantom-press/api";
const H = { "Content-Type": "application/json", Authorization: `Bearer ${apiKey}` };
for (const spec of (actionsArg ?? "look").split(",")) {
  const i = spec.indexOf(":");
  const action = (i < 0 ? spec : spec.slice(0, i)).trim();
  const arg = i < 0 ? undefined : spec.slice(i + 1).trim();
  const res = await fetch(`${BASE}/runs/${runId}/action`, {
    method: "POST", headers: H, body: JSON.stringify({ action, ...(arg ? { arg } : {}) }),
  });
  const j = await res.json();
  if (j.narrative) console.log(j.narrative);
  if (j.error) console.log("!! " + j.error);
  const s = j.state;
  if (s) {
    console.log(`-- 案件${s.case_no} T${s.turn} 信用${s.trust} AP${s.ap} ${s.status}`);
    console.log("   可能: " + (j.available_actions ?? []).join(" / "));
    if (s.status !== "active") break;
  }
}
