#!/usr/bin/env python3
"""An agent that speaks the frames of the official Pyyol SDK, standard library only.

Written for the conformance kit's tests from the SDK's documented behaviour
(local-runtime.md and the SDK's public runtime): it dials the gateway,
registers, answers the gateway's pings and sends its own, hands each turn to
the handler registered for the turn view's `game` (a view that names no game
has no handler: the SDK then sends an error and the platform plays the
fallback), answers with the move in `payload`, acknowledges initialize with
{ready, display_name} in `payload`, reads an event's type from `kind` and a
game_end's result from `payload`.

    sdk_agent.py WS-URL AGENT-ID TOKEN GAME [FRAME-LOG]

It plays one match of GAME (goofspiel, mafia or monopoly), prints one JSON
line {"game", "turns", "handled", "unhandled", "events", "result"} and exits
0, or prints the reason on stderr and exits 1. With FRAME-LOG it appends
every frame it sent or received, one JSON object a line:
{"dir": "in"|"out", "frame": {...}}.
"""

import base64
import json
import os
import socket
import struct
import sys
import threading
import time
from urllib.parse import urlsplit


class Socket:
    """A minimal RFC 6455 client: text frames out (masked), frames in."""

    def __init__(self, url, timeout=30.0):
        u = urlsplit(url)
        if u.scheme != "ws":
            raise ValueError("only ws:// URLs: " + url)
        port = u.port or 80
        path = u.path or "/"
        if u.query:
            path += "?" + u.query
        self.sock = socket.create_connection((u.hostname, port), timeout=timeout)
        self.lock = threading.Lock()
        self.buf = b""
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {u.hostname}:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        head = self._until(b"\r\n\r\n")
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status + b" ":
            raise ConnectionError("upgrade refused: " + status.decode(errors="replace"))

    def _until(self, marker):
        while marker not in self.buf:
            self._fill()
        head, self.buf = self.buf.split(marker, 1)
        return head

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("socket closed")
        self.buf += chunk

    def _take(self, n):
        while len(self.buf) < n:
            self._fill()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _send_frame(self, opcode, data):
        head = bytes([0x80 | opcode])
        n = len(data)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        with self.lock:
            self.sock.sendall(head + mask + masked)

    def send_text(self, text):
        self._send_frame(0x1, text.encode("utf-8"))

    def recv_text(self):
        """The next text message; answers control frames on the way."""
        message, kind = b"", None
        while True:
            b0, b1 = self._take(2)
            fin, opcode = b0 & 0x80, b0 & 0x0F
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._take(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._take(8))[0]
            mask = self._take(4) if b1 & 0x80 else None
            data = self._take(n)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            if opcode == 0x8:
                raise ConnectionError("closed by the gateway")
            if opcode == 0x9:
                self._send_frame(0xA, data)
                continue
            if opcode == 0xA:
                continue
            if opcode in (0x1, 0x2):
                message, kind = data, opcode
            elif opcode == 0x0:
                message += data
            if fin and kind is not None:
                return message.decode("utf-8")

    def close(self):
        try:
            self._send_frame(0x8, struct.pack("!H", 1000))
            self.sock.close()
        except OSError:
            pass


def goofspiel(view):
    """Bid the prize card when held, else the lowest card."""
    legal = view["legal_actions"]
    card = view["current_prize"] if view["current_prize"] in legal else min(legal)
    return {"round": view["round"], "card": card, "rationale": "prize card or lowest"}


def mafia(view):
    """A legal move for the phase: the lowest living seat that is neither
    oneself nor a known ally; the Doctor protects itself; a short message."""
    legal = view.get("legal") or []
    if not legal:
        return {}
    action = legal[0]
    me = view["your_seat"]
    if action == "message":
        return {"action": "message", "tone": "info", "text": f"Seat {me} is watching."}
    if action == "protect":
        return {"action": "protect", "target": me}
    allies = set(view.get("allies") or [])
    alive = sorted(int(s) for s, up in (view.get("alive") or {}).items() if up)
    for seat in alive:
        if seat != me and seat not in allies:
            return {"action": action, "target": seat}
    return {"action": action, "target": next(s for s in alive if s != me)}


def monopoly(view):
    """The docs' example: roll, buy or end_turn when listed, else the first."""
    legal = view["legal_actions"]
    for action in ("roll", "buy", "end_turn"):
        if action in legal:
            return {"action": action}
    return {"action": legal[0]}


HANDLERS = {"goofspiel": goofspiel, "mafia": mafia, "monopoly": monopoly}


class Agent:
    def __init__(self, url, agent_id, token, game, log_path=None, heartbeat=10.0):
        self.url, self.agent_id, self.token, self.game = url, agent_id, token, game
        self.log = open(log_path, "a") if log_path else None
        self.heartbeat = heartbeat
        self.turns = self.handled = self.unhandled = self.events = 0
        self.result = None
        self.ws = None
        self.pongs = 0

    def note(self, direction, frame):
        if self.log:
            self.log.write(json.dumps({"dir": direction, "frame": frame}) + "\n")
            self.log.flush()

    def send(self, frame):
        self.note("out", frame)
        self.ws.send_text(json.dumps(frame))

    def recv(self):
        obj = json.loads(self.ws.recv_text())
        frame = obj if isinstance(obj, dict) else {}
        self.note("in", frame)
        return frame

    def pinger(self, stop):
        while not stop.wait(self.heartbeat):
            try:
                self.send({"t": "ping"})
            except OSError:
                return

    def run(self):
        self.ws = Socket(self.url)
        hello = self.recv()
        if hello.get("t") != "hello":
            raise RuntimeError(f"expected hello, got {hello}")
        self.send({"t": "register", "agent_id": self.agent_id, "token": self.token,
                   "agent_name": "kit-sdk-agent", "version": "1.0.0", "games": [self.game],
                   "sdk_version": "0.0.0-kit", "sdk_language": "python"})
        reg = self.recv()
        if reg.get("t") != "registered":
            raise RuntimeError(f"register rejected: {reg}")
        stop = threading.Event()
        self.send({"t": "ping"})  # one at once, then every heartbeat
        threading.Thread(target=self.pinger, args=(stop,), daemon=True).start()
        try:
            while self.result is None:
                self.dispatch(self.recv())
            # KIT_AGENT_LINGER: stay until the gateway's own ping was
            # answered (a short match may end before its first heartbeat).
            linger = time.time() + float(os.environ.get("KIT_AGENT_LINGER", "0"))
            while self.pongs == 0 and time.time() < linger:
                self.dispatch(self.recv())
        finally:
            stop.set()
            self.ws.close()

    def dispatch(self, frame):
        t = frame.get("t")
        if t == "ping":
            self.send({"t": "pong", "id": frame.get("id", "")})
            self.pongs += 1
        elif t == "initialize":
            self.send({"t": "response", "id": frame.get("id", ""),
                       "payload": {"ready": True, "display_name": "kit-sdk-agent"}})
        elif t == "turn":
            self.turn(frame)
        elif t == "event":
            if not frame.get("kind"):
                raise RuntimeError(f"an event without kind: {frame}")
            self.events += 1
        elif t == "game_end" and self.result is None:
            self.result = frame.get("payload")
            if not isinstance(self.result, dict):
                raise RuntimeError(f"a game_end without a payload result: {frame}")
        elif t == "error":
            raise RuntimeError(f"gateway error: {frame}")

    def turn(self, frame):
        """As the SDK does: the view is the payload and names its game; the
        handler of that game decides; no handler means an error answer."""
        self.turns += 1
        view = frame.get("payload") or {}
        handler = HANDLERS.get(view.get("game", ""))
        if handler is None or view.get("game") != self.game:
            self.unhandled += 1
            self.send({"t": "response", "id": frame.get("id", ""), "error": "no_handler"})
            return
        self.handled += 1
        self.send({"t": "response", "id": frame.get("id", ""), "payload": handler(view)})


def main(argv):
    if len(argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    log_path = argv[5] if len(argv) > 5 else None
    heartbeat = float(os.environ.get("KIT_AGENT_HEARTBEAT", "10"))
    agent = Agent(argv[1], argv[2], argv[3], argv[4], log_path, heartbeat)
    try:
        agent.run()
    except Exception as e:  # noqa: BLE001 — the test reads the reason
        print(f"sdk_agent: {e}", file=sys.stderr)
        return 1
    print(json.dumps({"game": agent.game, "turns": agent.turns, "handled": agent.handled,
                      "unhandled": agent.unhandled, "events": agent.events,
                      "result": agent.result}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
