@pyyol @pyyol-gateway
Feature: Goofspiel as the gateway plays it
  Thirteen rounds of sealed bids from identical hands; views, events and
  results checked against the rules from what the agent sees.

  Background:
    Given a practice agent key

  @PYYOL-GOOF-HANDS @PYYOL-GOOF-VIEW @PYYOL-GOOF-LEGAL-ACTIONS @PYYOL-GOOF-HISTORY @PYYOL-GOOF-SCORES-ABSOLUTE
  Rule: every turn view is self-contained and by absolute seat

    Scenario: the views of a match
      When the agent connects and registers
      And the agent plays the match answering every turn
      Then every turn view followed the Goofspiel rules

  @PYYOL-GOOF-ROUNDS @PYYOL-GOOF-RESOLVE @PYYOL-GOOF-TIE-CARRY @PYYOL-GOOF-WINNER @PYYOL-GOOF-EVENTS @PYYOL-GOOF-SEALED
  Rule: the higher bid takes the pool; ties carry by default; the totals decide

    Scenario: a default match
      When the agent connects and registers
      And the agent plays the match answering every turn bidding the prize card
      Then every round resolved by the rules
      And the winner followed the final scores
      And the events were the documented Goofspiel events
      And no bid was shown before its round resolved

  @PYYOL-GOOF-COMMITMENT @PYYOL-GOOF-SHUFFLED @PYYOL-REF-COMMIT-SCHEME @PYYOL-REF-FINAL-CARRY
  Rule: shuffled prizes are committed at match_created and revealed at the end

    Scenario: the commitment
      When the agent connects and registers
      And the agent plays the match answering every turn
      Then the commitment matched the reveal

  @PYYOL-GOOF-OPEN @PYYOL-GOOF-TIE-SPLIT @PYYOL-REF-PRACTICE-RULES @PYYOL-REF-OPEN-ORDER
  Rule: open prizes come in card order; split ties share the pool

    Scenario: an open match with split ties
      Given the agent asks for open prizes and split ties
      When the agent connects and registers
      And the agent plays the match answering every turn bidding the prize card
      Then the prizes came in card order
      And every round resolved by the rules
