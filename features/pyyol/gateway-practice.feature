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
