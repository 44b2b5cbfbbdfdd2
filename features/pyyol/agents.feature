@agent @pyyol-gateway
Feature: Pyyol gateway rules for agents
  local-runtime.md's rules for an agent on the gateway's socket, audited
  frame by frame by the reference gateway (serve --audit). Each scenario
  plays a scripted agent on a practice match with the audit on and checks
  the frame the audit names; conformance run never selects these
  scenarios, since they check agents, not platforms.

  Rule: the well-behaved agent

    Scenario: An agent that follows every rule gets a clean audit
      Given an agent that plays by the rules
      When it plays against the reference server with the audit on
      Then the audit saw the agent's requests
      And the audit names no rule

  @PYYOL-AGENT-REGISTER
  Rule: PYYOL-AGENT-REGISTER an agent answers hello with register before any other frame

    Scenario: A response before register is named
      Given an agent that sends a response before it registers
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-REGISTER with the offending request "frame response"

  @PYYOL-AGENT-RESPONSE-ID
  Rule: PYYOL-AGENT-RESPONSE-ID a response echoes the id of a turn or initialize the agent was sent

    Scenario: A response with an id never sent is named
      Given an agent that answers with an id it was never sent
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-RESPONSE-ID with the offending request "frame response turn_never_sent"

  @PYYOL-AGENT-ONE-WAY
  Rule: PYYOL-AGENT-ONE-WAY an agent sends no response to event or game_end frames

    Scenario: A response without an id is named
      Given an agent that sends a response without an id, as if answering an event
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-ONE-WAY with the offending request "frame response"

  @PYYOL-AGENT-ON-TIME
  Rule: PYYOL-AGENT-ON-TIME an agent answers a turn before the gateway's timeout
    The audit sees an answer to a turn the gateway's own timeout settled;
    a turn a --faults late turn settled is never blamed.

    Scenario: An answer after the timeout is named
      Given an agent that answers a turn after the gateway's timeout
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-ON-TIME with the offending request "frame response {id}"

  @PYYOL-AGENT-HEARTBEAT
  Rule: PYYOL-AGENT-HEARTBEAT a connected agent pings every few seconds
    "Every few seconds" is read as at most 15 s between the agent's pings,
    three times the reference's own heartbeat (serve --audit); the
    scenario's gateway allows a shorter gap, so the play stays short.

    Scenario: An agent silent for longer than the audit allows is named
      Given an agent that never pings for longer than the audit allows
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-HEARTBEAT with the offending request "frame ping"

  @PYYOL-AGENT-RECONNECT
  Rule: PYYOL-AGENT-RECONNECT after a drop an agent reconnects and re-registers
    The audit sees whether a dropped agent re-registers within 5 s of its
    match's end (serve --audit; the scenario's gateway allows less); the
    exponential backoff between its attempts is not audited.

    Scenario: An agent that never comes back after a drop is named
      Given an agent that gives up when the gateway drops its socket in a match
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-RECONNECT with the offending request "frame game_end {id}"

  @PYYOL-AGENT-KEY-NOT-SECRET
  Rule: PYYOL-AGENT-KEY-NOT-SECRET an agent registers with its agent key, never its manifest's endpoint secret
    The gateway resolves only agent keys, so the audit can see only a token
    that is both the agent's key and a stored endpoint secret.

    Scenario: Registering with the endpoint secret is named
      Given an agent that registers with a token it also stored as its manifest's endpoint secret
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-KEY-NOT-SECRET with the offending request "frame register"

  @PYYOL-AGENT-GOOF-ROUND
  Rule: PYYOL-AGENT-GOOF-ROUND a Goofspiel move echoes the view's round

    Scenario: A bid for another round is named
      Given an agent that bids for another round than the view's
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-GOOF-ROUND with the offending request "frame response {id}"

  @PYYOL-AGENT-GOOF-CARD
  Rule: PYYOL-AGENT-GOOF-CARD a Goofspiel move bids a card of legal_actions

    Scenario: A card outside legal_actions is named
      Given an agent that bids a card it does not hold
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-GOOF-CARD with the offending request "frame response {id}"

  @PYYOL-AGENT-GOOF-ONE-BID
  Rule: PYYOL-AGENT-GOOF-ONE-BID an agent answers each Goofspiel turn once

    Scenario: A re-bid is named
      Given an agent that bids twice on one turn
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-GOOF-ONE-BID with the offending request "frame response {id}"

  @PYYOL-AGENT-MAFIA-ACTION
  Rule: PYYOL-AGENT-MAFIA-ACTION a Mafia move's action is one of the view's legal actions

    Scenario: A Mafia action outside legal is named
      Given an agent that plays a Mafia action outside legal
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-MAFIA-ACTION with the offending request "frame response {id}"

  @PYYOL-AGENT-MAFIA-TARGET
  Rule: PYYOL-AGENT-MAFIA-TARGET a targeted Mafia action names a target seat

    Scenario: A vote without a target is named
      Given an agent that votes in Mafia without a target
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-MAFIA-TARGET with the offending request "frame response {id}"

  @PYYOL-AGENT-MONO-ACTION
  Rule: PYYOL-AGENT-MONO-ACTION a Monopoly move's action is one of the view's legal_actions

    Scenario: A Monopoly action outside legal_actions is named
      Given an agent that plays a Monopoly action outside legal_actions
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-MONO-ACTION with the offending request "frame response {id}"

  @PYYOL-AGENT-MONO-PROPERTY
  Rule: PYYOL-AGENT-MONO-PROPERTY a Monopoly build, mortgage, unmortgage or sell_house names a square

    Scenario: A build without a property is named
      Given an agent that builds in Monopoly without naming a property
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-MONO-PROPERTY with the offending request "frame response {id}"

  @PYYOL-AGENT-MONO-TRADE
  Rule: PYYOL-AGENT-MONO-TRADE a Monopoly move carries trade only with propose_trade

    Scenario: A trade beside another action is named
      Given an agent that sends a Monopoly trade with an action other than propose_trade
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-MONO-TRADE with the offending request "frame response {id}"

  @PYYOL-AGENT-MONO-PHASE-NOT-ACTION
  Rule: PYYOL-AGENT-MONO-PHASE-NOT-ACTION a Monopoly move never names a phase as its action

    Scenario: A phase named as an action is named
      Given an agent that names a Monopoly phase as its action
      When it plays against the reference server with the audit on
      Then the audit names PYYOL-AGENT-MONO-PHASE-NOT-ACTION with the offending request "frame response {id}"
