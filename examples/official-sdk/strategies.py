"""Simple legal moves for each game, shared by play.py and push.py: the
kit's own handler logic (the SDK supplies the views and move types)."""

from pyyol.models import GoofspielMove, MafiaMove, MonopolyMove


def goofspiel(v):
    """Bid the prize card when held, else the lowest card."""
    card = v.current_prize if v.current_prize in v.legal_actions else min(v.legal_actions)
    return GoofspielMove(card=card, round=v.round)


def mafia(v):
    """The phase's first legal action: the Doctor protects itself, a target
    is the lowest living seat that is neither oneself nor a known ally."""
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


def monopoly(v):
    """Roll, buy or end the turn when listed, else the first legal action."""
    for action in ("roll", "buy", "end_turn"):
        if action in v.legal_actions:
            return MonopolyMove(action=action)
    return MonopolyMove(action=v.legal_actions[0])


HANDLERS = {"goofspiel": goofspiel, "mafia": mafia, "monopoly": monopoly}
