@pyyol @pyyol-push
Feature: Mafia pushed to an agent endpoint
  The kit plays the platform for a whole 12-seat Mafia match: the agent's
  endpoint holds one seat, the kit's baseline the other eleven, and every
  move the agent answers is refereed on the engine: a move outside legal,
  or a targeted action naming no seat of the table, fails; a move of that
  shape the kit's reference rules refuse (its own seat, a dead seat, a
  fellow Mafia, a message over 500 characters) only warns, and the safe
  default is played instead. An agent whose handshake does not list mafia
  is not judged on it (skip).

  Background:
    Given the kit plays the platform against the agent endpoint

  @PYYOL-MAFIA-MOVE @PYYOL-PUSH-TURN @PYYOL-PUSH-LEGAL-MOVES @PYYOL-MAFIA-REF-TARGETS @PYYOL-MAFIA-REF-TEXT @PYYOL-REF-USAGE @PYYOL-PUSH-INITIALIZE @PYYOL-PUSH-EVENT-ACK @PYYOL-PUSH-GAME-END-ACK
  Rule: over a whole refereed Mafia match every move is legal

    Scenario Outline: a Mafia match with the agent as a <role>
      When the platform plays a refereed Mafia match with the agent as a <role>
      Then every Mafia move was legal and the match reached its end

      Examples:
        | role      |
        | Detective |
        | Doctor    |
        | Sheriff   |
        | Mafia     |
        | Villager  |
