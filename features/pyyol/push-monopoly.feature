@pyyol @pyyol-push
Feature: Monopoly pushed to an agent endpoint
  The kit plays the platform for a whole Monopoly match: the agent's
  endpoint holds one seat, engine bots the others, and every answer is
  refereed on the engine. A move outside the documented shape or outside
  legal_actions fails; a move the contract allows but the kit's reference
  rules refuse only warns, and the engine's fallback is played instead.
  An agent whose handshake does not list monopoly is not judged on it
  (skip).

  Background:
    Given the kit plays the platform against the agent endpoint

  @PYYOL-MONO-REF-PUSH-MATCH @PYYOL-PUSH-TURN @PYYOL-MONO-MOVE-ACTION @PYYOL-MONO-MOVE-PROPERTY @PYYOL-MONO-MOVE-AMOUNT @PYYOL-MONO-MOVE-TRADE @PYYOL-MONO-REF-PUSH-REFEREE @PYYOL-MONO-REF-PUSH-BASELINE @PYYOL-REF-USAGE @PYYOL-PUSH-INITIALIZE @PYYOL-PUSH-EVENT-ACK @PYYOL-PUSH-GAME-END-ACK
  Rule: over a whole refereed Monopoly match every move is a legal move of the documented shape

    Scenario Outline: a Monopoly match with the agent at seat <seat> of <players>
      When the platform plays a refereed Monopoly match with the agent at seat <seat> of <players>
      Then every Monopoly move was legal and the match reached its end

      Examples:
        | seat | players |
        | 0    | 4       |
        | 1    | 2       |
