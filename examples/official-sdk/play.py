#!/usr/bin/env python3
"""Play one practice match of GAME with the official Pyyol SDK against a gateway.

    pip install pyyol websockets
    python3 play.py http://127.0.0.1:8080/v1 goofspiel

The SDK is used as published: its Agent, typed views and moves, and its
RuntimeConnector (hello, register, heartbeats, dispatch). Only the socket
factory is wrapped, through the connector's own `_connect` parameter, so the
frames the gateway sent can be counted. The script fetches a practice key
from BASE/practice/agents, plays until game_end and prints one JSON line:
{"game", "seat", "turn_frames", "handled", "fallbacks", "error_frames", ...}.
It exits 0 when the SDK's handler answered every turn the gateway sent, the
match reached game_end and the result records no fallback for its seat. An
SDK version whose connector has no `_connect` parameter plays uncounted
("frames_counted": false); the gateway's own fallback count still decides.
"""

import inspect
import json
import sys
import threading
import urllib.request

from pyyol import Agent
from pyyol.runtime import RuntimeConnector

import strategies


def practice_key(base):
    req = urllib.request.Request(base + "/practice/agents", data=b"{}",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)


class CountingSocket:
    """Wraps the SDK's socket and keeps every text message it received."""

    def __init__(self, ws, inbox):
        self._ws, self._inbox = ws, inbox

    def send(self, text):
        self._ws.send(text)

    def recv(self, *args, **kwargs):
        msg = self._ws.recv(*args, **kwargs)
        self._inbox.append(msg.decode() if isinstance(msg, (bytes, bytearray)) else msg)
        return msg

    def close(self):
        self._ws.close()


def counting_connect(inbox):
    from websockets.sync.client import connect

    return lambda url, **kw: CountingSocket(connect(url, **kw), inbox)


def counted(handler, seen):
    """handler, counting the turns it answers in seen["handled"]."""
    def answer(view):
        seen["handled"] += 1
        return handler(view)
    return answer


def build_agent(game, seen):
    """An SDK Agent with a simple legal strategy for each game."""
    agent = Agent(supported_games=[game], name="kit-official-sdk-" + game)
    for name, handler in strategies.HANDLERS.items():
        agent.on_turn(name)(counted(handler, seen))

    @agent.on_event
    def event(_e):
        seen["events"] += 1

    @agent.on_initialize
    def initialize(req):
        seen["seat"] = req.seat

    return agent


def fallbacks(result, seat):
    """Counts the fallbacks a result records for seat: per-seat flag lists,
    true flags and counters under any key naming a fallback."""
    if isinstance(result, list):
        return sum(fallbacks(v, seat) for v in result)
    if not isinstance(result, dict):
        return 0
    n = 0
    for key, value in result.items():
        if "fallback" not in key.lower():
            n += fallbacks(value, seat)
        elif isinstance(value, list):
            n += 1 if seat is not None and seat < len(value) and value[seat] is True else 0
        elif value is True:
            n += 1
        elif isinstance(value, int) and not isinstance(value, bool):
            n += value
    return n


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    base, game = argv[1].rstrip("/"), argv[2]
    key = practice_key(base)
    seen = {"handled": 0, "events": 0, "result": None, "seat": None}
    agent = build_agent(game, seen)
    inbox = []
    options = {}
    counted = "_connect" in inspect.signature(RuntimeConnector).parameters
    if counted:  # an SDK version without the hook plays uncounted
        options["_connect"] = counting_connect(inbox)
    connector = RuntimeConnector(agent, url="ws" + base[len("http"):] + "/agent/connect",
                                 agent_id=key["agent_id"], token=key["token"], name=agent.name,
                                 games=[game], reconnect=False, **options)

    @agent.on_game_end
    def game_end(g):
        seen["result"] = g.result
        connector.stop()

    worker = threading.Thread(target=connector.run, daemon=True)
    worker.start()
    worker.join(300)
    frames = [json.loads(m) for m in inbox]
    seat = seen["seat"]
    out = {
        "game": game,
        "seat": seat,
        "frames_counted": counted,
        "turn_frames": sum(1 for f in frames if f.get("t") == "turn") if counted else None,
        "handled": seen["handled"],
        "events": seen["events"],
        "game_end": seen["result"] is not None,
        "fallbacks": fallbacks(seen["result"], seat),
        "error_frames": [f for f in frames if f.get("t") == "error"][:3],
    }
    print(json.dumps(out))
    every_turn = out["handled"] == out["turn_frames"] if counted else True
    ok = out["game_end"] and out["handled"] > 0 and every_turn and out["fallbacks"] == 0 and not out["error_frames"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
