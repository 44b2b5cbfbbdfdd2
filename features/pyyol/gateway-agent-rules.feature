@pyyol @pyyol-gateway
Feature: The rules for agents: what the docs ask of an agent on the socket
  The docs also tell agents what to do: register first, echo the turn's id,
  answer events never, one bid per turn that echoes the round and holds a
  legal card, a legal action with the fields it needs, a ping every few
  seconds, a reconnection after a drop, the agent key (never the endpoint
  secret) in register. These are rules for agents (`side: agent`): the
  gateway of `conformance serve --audit` watches every agent's frames and
  reports each break with its rule, quote and frame. A run never judges a
  gateway on them; these scenarios are the kit's own agent keeping them
  while it checks the gateway.

  Background:
    Given a practice agent key

  @PYYOL-AGENT-REGISTER @PYYOL-AGENT-KEY-NOT-SECRET @PYYOL-AGENT-RESPONSE-ID @PYYOL-AGENT-ONE-WAY
  @PYYOL-AGENT-ON-TIME @PYYOL-AGENT-HEARTBEAT @PYYOL-AGENT-GOOF-ROUND @PYYOL-AGENT-GOOF-CARD @PYYOL-AGENT-GOOF-ONE-BID
  Rule: an agent registers first, pings, and answers each turn once, in time, with its id, its round and a legal card

    Scenario: the kit plays a Goofspiel match by the rules for agents
      When the agent connects and registers
      And the agent plays the match answering every turn after a ping
      Then every answered turn was played as answered
      And the match ended with game_end and the full history

  @PYYOL-AGENT-RECONNECT
  Rule: an agent whose socket drops reconnects and re-registers

    Scenario: the kit reconnects after its socket drops
      When the agent connects and registers
      And the agent plays the match dropping the socket in round 0 and reconnecting
      Then the match ended with game_end and the full history

  @PYYOL-AGENT-MAFIA-ACTION @PYYOL-AGENT-MAFIA-TARGET
  Rule: a Mafia move is one of the legal actions, with a target where one is required

    Scenario: the kit plays a Mafia match by the rules for agents
      When the agent plays a Mafia match as a Detective
      Then every Mafia view followed the turn view rules

  @PYYOL-AGENT-MONO-ACTION @PYYOL-AGENT-MONO-PROPERTY @PYYOL-AGENT-MONO-TRADE @PYYOL-AGENT-MONO-PHASE-NOT-ACTION
  Rule: a Monopoly move is an action of legal_actions, never a phase, with the square or trade it needs

    Scenario: the kit plays a Monopoly match by the rules for agents
      When the agent registers for a Monopoly practice match of 2 seats and a turn cap of 40
      And the agent plays the Monopoly match choosing from the legal list
      Then every action chosen from the legal list took effect
