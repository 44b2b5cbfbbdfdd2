#!/usr/bin/env python3
"""Serve the official Pyyol SDK's hosted push endpoint for the kit to check.

    pip install pyyol
    python3 push.py 9099 ENDPOINT-SECRET
    conformance run --target http://127.0.0.1:9099/agent/turn --protocol pyyol-push --secret ENDPOINT-SECRET

The SDK is used as published (Agent.serve: routing, signature verification,
replay protection, typed views); only the turn handlers below are ours.
"""

import sys

from pyyol import Agent
from pyyol.models import GoofspielMove, MafiaMove, MonopolyMove


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    agent = Agent(secret=argv[2], name="kit-official-sdk-push")

    @agent.on_turn("goofspiel")
    def goofspiel(v):
        return GoofspielMove(card=min(v.legal_actions), round=v.round)

    @agent.on_turn("mafia")
    def mafia(v):
        if not v.legal:
            return {}
        action = v.legal[0]
        if action == "message":
            return MafiaMove(action="message", tone="info", text="watching")
        if action == "protect":
            return MafiaMove(action="protect", target=v.your_seat)
        others = [s for s, up in sorted(v.alive.items()) if up and s != v.your_seat]
        strangers = [s for s in others if s not in v.allies]
        return MafiaMove(action=action, target=(strangers or others)[0])

    @agent.on_turn("monopoly")
    def monopoly(v):
        for action in ("roll", "buy", "end_turn"):
            if action in v.legal_actions:
                return MonopolyMove(action=action)
        return MonopolyMove(action=v.legal_actions[0])

    agent.serve(host="127.0.0.1", port=int(argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
