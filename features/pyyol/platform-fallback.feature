@pyyol @pyyol-platform @push
Feature: The platform's fallback and outbound limits during a pushed match
  On chosen rounds of the match the platform pushes, the kit's endpoint
  answers late, illegally, with an error, not at all, with a redirect to a
  second path of its own, with an answer body that never ends, or never.
  Each time the match must go on and the round take the lowest legal card.

  Background:
    Given the platform has verified the kit's endpoint and pushed it a match

  @PYYOL-PLAT-TURN-TIMEOUT
  Rule: runtime.timeout bounds the wait for a turn: an answer after it is not taken, one inside it is

    Scenario: a late answer
      Then the turn the kit answered late fell back to the lowest card and the match went on

    Scenario: an answer inside runtime.timeout, after a shorter timeout would have run out
      Then the turn the kit answered inside runtime.timeout took the kit's card

  @PYYOL-PLAT-FALLBACK
  Rule: an illegal move, an error or no answer takes the lowest legal card

    Scenario: an illegal card
      Then the turn the kit answered illegally fell back to the lowest card and the match went on

    Scenario: a 500
      Then the turn the kit answered with an error fell back to the lowest card and the match went on

    Scenario: a dropped connection
      Then the turn the kit answered not at all fell back to the lowest card and the match went on

  @PYYOL-PLAT-NO-REDIRECT
  Rule: a 3xx from the endpoint is not followed

    Scenario: a 307 to the kit's second path
      Then the turn the kit answered with a redirect fell back to the lowest card and the match went on

  @PYYOL-PLAT-BOUNDED-BODY
  Rule: an endless answer body is cut

    Scenario: an answer body that never ends
      Then the turn the kit answered with an endless body fell back to the lowest card and the match went on

  @PYYOL-PLAT-ATTEMPT-TIMEOUT
  Rule: a hung answer costs one attempt timeout, not the match

    Scenario: a turn never answered
      Then the turn the kit answered never fell back to the lowest card and the match went on
