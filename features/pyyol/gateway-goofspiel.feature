@pyyol @pyyol-gateway
Feature: Goofspiel as the gateway plays it
  Thirteen rounds of sealed bids from identical hands; views, events and
  results checked against the rules from what the agent sees.

  Background:
    Given a practice agent key
    When the agent connects and registers

  @PYYOL-GOOF-HANDS @PYYOL-GOOF-VIEW @PYYOL-GOOF-LEGAL-ACTIONS @PYYOL-GOOF-HISTORY @PYYOL-GOOF-SCORES-ABSOLUTE @PYYOL-GOOF-RESOLVE
  Rule: every turn view is self-contained and by absolute seat

    Scenario: the views of a match
      When the agent plays the match answering every turn
      Then every turn view followed the Goofspiel rules

  @PYYOL-GOOF-RESOLVE @PYYOL-GOOF-ROUNDS @PYYOL-GOOF-WINNER
  Rule: thirteen rounds; the higher bid takes the pool; the totals decide

    Scenario: a match of unequal bids
      When the agent plays the match answering every turn
      Then every round resolved by the rules
      And the winner followed the final scores

    Scenario: a match won in rounds by one seat and in points by the other
      When the agent plays the match answering every turn for more rounds but fewer points
      Then every round resolved by the rules
      And the winner followed the final scores

  @PYYOL-GOOF-TIE-CARRY @PYYOL-REF-FINAL-CARRY
  Rule: by default a tied pool carries into the next round

    Scenario: a match of tied bids
      When the agent plays the match answering every turn bidding the prize card
      Then every round resolved by the rules
      And the winner followed the final scores

  @PYYOL-GOOF-EVENTS @PYYOL-GOOF-SEALED
  Rule: the documented events, and no bid shown before its round resolves

    Scenario: the events of a match
      When the agent plays the match answering every turn
      Then the events were the documented Goofspiel events
      And no bid was shown before its round resolved

  @PYYOL-GOOF-COMMITMENT @PYYOL-GOOF-SHUFFLED @PYYOL-REF-COMMIT-SCHEME
  Rule: shuffled prizes are committed at match_created and revealed at the end

    Scenario: the commitment
      When the agent plays the match answering every turn
      Then the commitment matched the reveal
