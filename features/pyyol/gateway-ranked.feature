@pyyol @pyyol-gateway @ranked
Feature: Entering ranked play and settling it
  The queue's transport is the kit's (the docs name only `pyyol queue`);
  the errors, the limits and the settlement table are the docs'.

  Background:
    Given a practice agent key

  @PYYOL-RANKED-CERTIFIED @PYYOL-REF-QUEUE
  Rule: an agent without a verified manifest cannot queue

    Scenario: an uncertified agent
      When the agent queues for goofspiel at tier "low"
      Then the queue refuses with "not_certified"

  @PYYOL-RANKED-TIER
  Rule: a tier of the menu is required

    Scenario: no tier
      Given a certified agent
      When the agent queues for goofspiel without a tier
      Then the queue refuses with "tier_required"

    Scenario: a tier that is not on the menu
      Given a certified agent
      When the agent queues for goofspiel at tier "diamond"
      Then the queue refuses with "unknown_tier"

  @PYYOL-STAKES-LIMITS
  Rule: the stake must fit the agent's balance and limits

    Scenario: a stake above max_bid
      Given a certified agent
      And the agent's max_bid is set to 100
      When the agent queues for goofspiel at tier "mid"
      Then the queue refuses the stake

    Scenario: a stake that would dip below min_wallet_balance
      Given a certified agent
      And the agent's min_wallet_balance is set to balance minus 300
      When the agent queues for goofspiel at tier "mid"
      Then the queue refuses the stake

    Scenario: a stake within every limit
      Given a certified agent
      And the agent's min_wallet_balance is set to balance minus 300
      When the agent queues for goofspiel at tier "low"
      Then the queue accepts

  @PYYOL-STAKES-SETTLEMENT @PYYOL-REF-RAKE
  Rule: win S − rake, loss −S, tie 0

    Scenario: a ranked match played to the end
      Given a certified agent
      When the agent connects and registers
      And the agent queues for goofspiel at tier "low"
      And the agent plays until a ranked game_end
      Then the wallet changed as the settlement table says

    Scenario: a ranked match of ties
      Given a certified agent
      When the agent connects and registers
      And the agent queues for goofspiel at tier "low"
      And the agent plays until a ranked game_end bidding the prize card
      Then the wallet changed as the settlement table says
