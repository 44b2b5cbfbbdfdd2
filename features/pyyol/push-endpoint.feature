@pyyol @pyyol-push
Feature: The push protocol: the kit plays the platform against an agent's hosted endpoint
  The platform calls the agent's /turn and its sibling routes with signed
  JSON requests; the agent answers, and refuses what it cannot verify.

  Background:
    Given the kit plays the platform against the agent endpoint

  @PYYOL-PUSH-HEALTH @PYYOL-PUSH-SIBLINGS @PYYOL-OPENAPI
  Rule: /health is a sibling of /turn and answers healthy without a signature

    Scenario: the unsigned liveness probe
      When the platform probes /health without a signature
      Then the agent reports healthy

    Scenario: the liveness probe as the platform's client sends it
      When the platform probes /health with a timestamp and a request id but no signature
      Then the agent reports healthy

  @PYYOL-PUSH-HANDSHAKE @PYYOL-PUSH-SIBLINGS @PYYOL-SIGN-STRING @PYYOL-SIGN-HEADERS
  Rule: a signed handshake is accepted and lists the agent's games

    Scenario: the capability check
      When the platform sends a signed handshake
      Then the handshake is accepted and lists goofspiel

  @PYYOL-PUSH-INITIALIZE @PYYOL-PUSH-EVENT-ACK @PYYOL-PUSH-GAME-END-ACK @PYYOL-PUSH-SIBLINGS @PYYOL-REF-PUSH-BODIES
  Rule: lifecycle notifications are acknowledged with 200

    Scenario Outline: a signed <route> is acknowledged
      When the platform sends a signed <route>
      Then the agent acknowledges with 200

      Examples:
        | route      |
        | initialize |
        | event      |
        | game-end   |

  @PYYOL-PUSH-EVENT-ACK
  Rule: every event is acknowledged, whatever its order and its type

    Events are one-way webhooks delivered asynchronously: they may come out
    of seq order (the agent orders them by seq), and one of a type the
    agent has no use for is a public event all the same.

    Scenario: events out of seq order, the last of a type no game documents
      When the platform sends signed events out of seq order, the last of a type no game documents
      Then the agent acknowledges with 200

  @PYYOL-PUSH-INITIALIZE @PYYOL-PUSH-GAME-END-ACK
  Rule: two matches may run at once, each started and ended on its own

    The agent keys its state by match_id: a second match's /initialize
    may come before the first match's /game-end. The agent holds seat 0
    of the first and the last seat, 1, of the second: any seat below the
    player count is one the platform gives.

    Scenario: two matches started before either ends
      When the platform starts two matches, then ends them in order
      Then the agent acknowledges with 200

  @PYYOL-PUSH-INITIALIZE @PYYOL-PUSH-GAME-END-ACK
  Rule: a lifecycle call is acknowledged whatever the agent holds of its match

    The platform's client retries a call that failed or timed out, each
    attempt signed afresh, and its /initialize is best-effort: the same
    call may come twice, and a match may end that never started.

    Scenario Outline: a match's <route> delivered twice
      When the platform delivers a match's <route> twice
      Then the agent acknowledges with 200

      Examples:
        | route      |
        | initialize |
        | game-end   |

    Scenario: the end of a match the agent never saw start
      When the platform ends a match it never initialized
      Then the agent acknowledges with 200

  @PYYOL-PUSH-TURN
  Rule: /turn answers a legal move

    Scenario: a turn for a fresh Goofspiel view
      When the platform sends a signed turn for a fresh Goofspiel view
      Then the answer is a legal move for the view

    Scenario: a turn in the middle of a match the agent never saw
      When the platform sends a signed turn for a Goofspiel view in the middle of a match
      Then the answer is a legal move for the view

  @PYYOL-PUSH-NO-TURN-HANDLER
  Rule: a turn for a game without a handler answers 501 no_turn_handler

    Scenario: a turn for a game the agent does not play
      When the platform sends a signed turn for a game the agent does not list
      Then the answer is 501 no_turn_handler

  @PYYOL-PUSH-LEGAL-MOVES @PYYOL-REF-BASELINE
  Rule: over a whole refereed match every move is legal

    Scenario: a full Goofspiel match against the kit's baseline
      When the platform plays a full refereed Goofspiel match
      Then every move was legal and the match reached its end
