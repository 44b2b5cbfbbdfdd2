@pyyol @pyyol-gateway
Feature: The agent gateway: the deterministic fallback and id correlation
  Whatever goes wrong with a turn, the engine bids the seat's lowest card
  and the match never wedges; a response counts only for the turn whose id
  it echoes.

  Background:
    Given a practice agent key
    When the agent connects and registers

  @PYYOL-WS-FALLBACK-TIMEOUT @PYYOL-REF-TURN-TIMEOUT @PYYOL-GOOF-FALLBACK-LOWEST
  Rule: a turn not answered in time takes the fallback

    Scenario: round 0 unanswered
      When the agent plays the match leaving round 0 unanswered
      Then round 0 of the agent's seat took its lowest card
      And the match ended with game_end and the full history

  @PYYOL-WS-FALLBACK-ILLEGAL
  Rule: an illegal move takes the fallback

    Scenario: a card the seat does not hold
      When the agent plays the match answering round 0 with an illegal card
      Then round 0 of the agent's seat took its lowest card
      And the match ended with game_end and the full history

  @PYYOL-WS-FALLBACK-ERROR @PYYOL-REF-ERROR-RESPONSE
  Rule: a handler error takes the fallback

    Scenario: a response reporting an error
      When the agent plays the match answering round 0 with a handler error
      Then round 0 of the agent's seat took its lowest card

  @PYYOL-WS-LATE-RESPONSE
  Rule: a response after its turn settled changes nothing

    Scenario: round 0 answered after it resolved
      When the agent plays the match answering round 0 only after it resolved
      Then round 0 of the agent's seat took its lowest card
      And every answered turn was played as answered
      And every turn view followed the Goofspiel rules

  @PYYOL-GOOF-MOVE
  Rule: a move must echo the view's round

    Scenario: round 0 answered for another round
      When the agent plays the match answering round 0 for another round
      Then round 0 of the agent's seat took its lowest card

  @PYYOL-WS-CORRELATION
  Rule: a response with another id decides nothing

    Scenario: round 0 answered under a wrong id
      When the agent plays the match answering round 0 under another turn's id
      Then round 0 of the agent's seat took its lowest card

  @PYYOL-WS-FALLBACK-DISCONNECT @PYYOL-WS-RECONNECT
  Rule: a turn in flight at a disconnect takes the fallback, and the agent may re-register

    Scenario: the socket drops in round 0
      When the agent plays the match dropping the socket in round 0 and reconnecting
      Then round 0 of the agent's seat took its lowest card
      And the match ended with game_end and the full history
