#!/usr/bin/env python3
"""Serve the official Pyyol SDK's hosted push endpoint for the kit to check.

    pip install pyyol
    python3 push.py 9099 ENDPOINT-SECRET
    conformance run --target http://127.0.0.1:9099/agent/turn --protocol pyyol-push --secret ENDPOINT-SECRET

The SDK is used as published (Agent.serve: routing, signature verification,
replay protection, typed views); only the turn handlers (strategies.py)
are ours.
"""

import sys

from pyyol import Agent

import strategies


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    agent = Agent(secret=argv[2], name="kit-official-sdk-push")
    for game, handler in strategies.HANDLERS.items():
        agent.on_turn(game)(handler)

    agent.serve(host="127.0.0.1", port=int(argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
