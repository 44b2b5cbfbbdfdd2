#!/usr/bin/env python3
"""A push agent shaped like the official Pyyol Python SDK's server, for the
kit's interop tests. Standard library only; written for the kit from the
behaviour the SDK documents and shows (protocol.md; the SDK's server,
signing and models modules, read for facts, none of their code copied):

- routes by the last path segment: GET .../health (never verified),
  POST .../handshake, .../initialize, .../event, .../game-end, and ANY
  other POST is a turn; a GET elsewhere is 405;
- verifies every POST before routing: the three X-Arena headers present
  (missing_signature), the v1= scheme (unsupported_version), the timestamp
  within 300 s (stale_timestamp), the nonce unseen, remembered before the
  signature is compared (replayed_nonce), then a constant-time compare of
  the HMAC-SHA256 over "ts\\nnonce\\nMETHOD\\npath\\nsha256hex(body)"
  (bad_signature); a refusal is 401 {"error":"unauthorized","reason":...};
- like the SDK's built-in server, it verifies and routes on the request
  path as the HTTP server hands it over, query string included;
- a turn dispatches on body["game"] and parses the body itself as the
  typed view (the view at the top level); no handler is 501
  {"error":"no_turn_handler","game":...}; a raising handler is 500
  {"error":"handler_error","message":...};
- moves serialize as the SDK's move dataclasses do: every field, with
  target -1, tone "" and text "" (Mafia), property 0 and amount 0
  (Monopoly) when unset.

usage: sdk_push_server.py --secret S [--port 0] [--games goofspiel,mafia,monopoly] [--path-without-query]
(--path-without-query hands over the path without its query string, as
the SDK's framework-agnostic handle() asks its callers to.)
Prints "listening PORT" once the socket is bound.
"""

import argparse
import hashlib
import hmac
import json
import sys
import threading
import time
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VERSION = "0.0-sdk-shaped"
NAME = "sdk-shaped-agent"
SKEW = 300


class Refused(Exception):
    """A request the verifier turns away, with its machine-readable reason."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


class Nonces:
    """Request ids seen in the last two skew windows."""

    def __init__(self):
        self.seen = {}
        self.lock = threading.Lock()

    def fresh(self, nonce, now):
        with self.lock:
            for old in [n for n, at in self.seen.items() if at < now - 2 * SKEW]:
                del self.seen[old]
            if nonce in self.seen:
                return False
            self.seen[nonce] = now
            return True


def epoch(stamp):
    """RFC3339 to epoch seconds, None when it does not parse."""
    text = stamp.strip()
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        return None


def check(secret, headers, method, path, body, nonces):
    """Raise Refused unless the request is signed with secret."""
    sig = headers.get("X-Arena-Signature") or ""
    stamp = headers.get("X-Arena-Timestamp") or ""
    nonce = headers.get("X-Arena-Request-Id") or ""
    if not (sig and stamp and nonce):
        raise Refused("missing_signature")
    scheme, _, digest = sig.partition("=")
    if scheme != "v1" or not digest:
        raise Refused("unsupported_version")
    now = time.time()
    at = epoch(stamp)
    if at is None or abs(now - at) > SKEW:
        raise Refused("stale_timestamp")
    if not nonces.fresh(nonce, now):
        raise Refused("replayed_nonce")
    text = "\n".join([stamp, nonce, method.upper(), path, hashlib.sha256(body).hexdigest()])
    want = hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(want, digest):
        raise Refused("bad_signature")


# --- the handlers: simple, always-legal strategies ---------------------------

def goofspiel(view):
    """The SDK's own example: the lowest legal card, echoing the round."""
    legal = view.get("legal_actions") or view.get("your_hand") or []
    return {"round": int(view.get("round", 0)), "card": min(legal)}


def mafia_move(action, target=-1, tone="", text=""):
    """A Mafia move as the SDK's dataclass serializes it."""
    return {"action": action, "target": target, "tone": tone, "text": text}


def mafia(view):
    """Speak when asked to, else act on the first living seat that fits."""
    me = int(view.get("your_seat", view.get("seat", 0)))
    alive = {int(seat): bool(up) for seat, up in (view.get("alive") or {}).items()}
    allies = set(view.get("allies") or [])
    legal = view.get("legal") or view.get("legal_actions") or []
    others = [s for s in sorted(alive) if alive[s] and s != me]
    if "message" in legal:
        return mafia_move("message", tone="info", text="Seat %d has nothing to hide." % me)
    for action in ("night_kill", "investigate", "protect", "profile", "vote"):
        if action in legal:
            pool = [s for s in others if s not in allies] or others
            return mafia_move(action, target=pool[0])
    return mafia_move(legal[0])


NO_ARGUMENT = ("roll", "buy", "end_turn", "pass", "decline", "skip_trade", "reject_trade",
               "accept_trade", "roll_jail", "pay_jail", "use_jail_card", "bankrupt")


def monopoly(view):
    """A preferred-order pick among the actions that need no argument."""
    legal = view.get("legal_actions") or []
    for action in NO_ARGUMENT:
        if action in legal:
            return {"action": action, "property": 0, "amount": 0}
    if "bid" in legal:
        return {"action": "bid", "property": 0, "amount": 1}
    return {"action": legal[0], "property": 0, "amount": 0}


HANDLERS = {"goofspiel": goofspiel, "mafia": mafia, "monopoly": monopoly}


class Agent:
    """Routing and answers; transport-free, so the server below stays thin."""

    def __init__(self, secret, games):
        self.secret = secret
        self.games = games
        self.nonces = Nonces()

    def handle(self, method, path, headers, body):
        suffix = path.rstrip("/").rsplit("/", 1)[-1]
        if method == "GET" and suffix == "health":
            return 200, {"status": "healthy", "agent": NAME, "version": VERSION}
        if method != "POST":
            return 405, {"error": "method_not_allowed"}
        try:
            check(self.secret, headers, method, path, body, self.nonces)
        except Refused as refusal:
            return 401, {"error": "unauthorized", "reason": refusal.reason}
        try:
            data = json.loads(body or b"{}")
        except ValueError:
            data = {}
        if suffix == "handshake":
            return 200, {"accepted": True, "sdkVersion": VERSION, "supportedGames": self.games}
        if suffix == "initialize":
            return 200, {"ready": True, "display_name": NAME}
        if suffix in ("event", "game-end"):
            return 200, {"ok": True}
        return self.turn(data)

    def turn(self, data):
        game = data.get("game", "")
        handler = HANDLERS.get(game) if game in self.games else None
        if handler is None:
            return 501, {"error": "no_turn_handler", "game": game}
        try:
            return 200, handler(data)
        except Exception as exc:  # a crashing handler is an answer, not a crash
            return 500, {"error": "handler_error", "message": str(exc)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--secret", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--games", default="goofspiel,mafia,monopoly")
    parser.add_argument("--path-without-query", action="store_true")
    args = parser.parse_args()
    agent = Agent(args.secret, [g for g in args.games.split(",") if g])

    class Handler(BaseHTTPRequestHandler):
        def answer(self, method):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            path = self.path.split("?", 1)[0] if args.path_without_query else self.path
            status, payload = agent.handle(method, path, self.headers, body)
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self.answer("GET")

        def do_POST(self):
            self.answer("POST")

        def log_message(self, *_):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print("listening %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    sys.exit(main())
