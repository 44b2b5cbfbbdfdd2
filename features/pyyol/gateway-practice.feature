@pyyol @pyyol-gateway
Feature: Goofspiel's configurable rules in practice matches
  The kit asks the reference gateway for a rule set with an optional
  register field; a gateway that ignores it makes these checks skip.

  Background:
    Given a practice agent key

  @PYYOL-GOOF-OPEN @PYYOL-GOOF-TIE-SPLIT @PYYOL-REF-PRACTICE-RULES @PYYOL-REF-OPEN-ORDER
  Rule: open prizes come in card order; split ties share the pool

    Scenario: an open match with split ties
      Given the agent asks for open prizes and split ties
      When the agent connects and registers
      And the agent plays the match answering every turn bidding the prize card
      Then the prizes came in card order
      And every round resolved by the rules

  @PYYOL-GOOF-VIEW @PYYOL-GOOF-HISTORY @PYYOL-GOOF-SCORES-ABSOLUTE @PYYOL-REF-PRACTICE-RULES
  Rule: the second seat's views are its own

    The views are judged from the seat initialize names, so a gateway
    that ignores the request judges seat 0 again.

    Scenario: the views of a match at seat 1
      Given the agent asks for seat 1
      When the agent connects and registers
      And the agent plays the match answering every turn
      Then every turn view followed the Goofspiel rules
