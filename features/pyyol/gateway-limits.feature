@pyyol @pyyol-gateway @ranked
Feature: The owner's guardrails on ranked entry, and the sandbox's free play
  ranked.md: the stake a ranked entry puts up must fit the agent's own
  limits: max_bid, coin_limit_per_match, the daily and session loss caps,
  the cooldown and max_concurrent_matches. Each bound is probed at the
  limit and one step past it where the docs fix the comparison; where they
  leave it open (how a loss cap counts a stake), only what every reading
  requires is asserted. The loss-cap and cooldown field names are the
  kit's (PYYOL-REF-LIMIT-FIELDS): a target without them skips.

  Background:
    Given a practice agent key

  @PYYOL-STAKES-LIMITS
  Rule: a stake at each bound is admitted, one coin past it is not

    Scenario: a stake equal to max_bid
      Given a certified agent
      And the owner sets max_bid to 100
      When the agent queues for goofspiel at tier "low"
      Then the queue accepts

    Scenario: a stake one coin above max_bid
      Given a certified agent
      And the owner sets max_bid to 99
      When the agent queues for goofspiel at tier "low"
      Then the queue refuses the stake

    Scenario: a balance exactly stake + min_wallet_balance
      Given a certified agent
      And the agent's min_wallet_balance is set to balance minus 100
      When the agent queues for goofspiel at tier "low"
      Then the queue accepts

    Scenario: a balance one coin short of stake + min_wallet_balance
      Given a certified agent
      And the agent's min_wallet_balance is set to balance minus 99
      When the agent queues for goofspiel at tier "low"
      Then the queue refuses the stake

    Scenario: a stake one coin above coin_limit_per_match
      Given a certified agent
      And the owner sets coin_limit_per_match to 499
      When the agent queues for goofspiel at tier "mid"
      Then the queue refuses the stake

    Scenario: a stake equal to coin_limit_per_match
      Given a certified agent
      And the owner sets coin_limit_per_match to 500
      When the agent queues for goofspiel at tier "mid"
      Then the queue accepts

  @PYYOL-STAKES-LOSS-CAPS @PYYOL-REF-LIMIT-FIELDS
  Rule: once the ranked losses reach a loss cap, no further stake is queued

    Scenario Outline: the <cap> reached by a lost match
      Given a certified agent
      And the owner sets <cap> to 100
      When the agent connects and registers
      And the agent loses a ranked match at tier "low"
      And the agent queues for goofspiel at tier "low"
      Then the queue refuses the entry under the loss caps

      Examples:
        | cap                |
        | daily_loss_limit   |
        | session_loss_limit |

  @PYYOL-STAKES-COOLDOWN @PYYOL-REF-LIMIT-FIELDS
  Rule: a cooldown after a losing streak refuses stakes until it has passed

    Scenario: a loss starts the cooldown
      Given a certified agent
      And the owner sets cooldown_losses to 1
      And the owner sets cooldown_seconds to 90
      When the agent connects and registers
      And the agent loses a ranked match at tier "low"
      And the agent queues for goofspiel at tier "low"
      Then the queue refuses the entry under the cooldown

    @long
    Scenario: the cooldown has passed
      Given a certified agent
      And the owner sets cooldown_losses to 1
      And the owner sets cooldown_seconds to 90
      When the agent connects and registers
      And the agent loses a ranked match at tier "low"
      And 91 seconds pass
      And the agent queues for goofspiel at tier "low"
      Then the queue accepts

  @PYYOL-STAKES-CONCURRENT
  Rule: no stake past max_concurrent_matches

    Scenario: a second stake while the first ranked match is under way
      Given a certified agent
      And the owner sets max_concurrent_matches to 1
      When the agent connects and registers
      And the agent plays its practice match to the end
      And the agent queues for goofspiel at tier "low"
      And the ranked match is under way
      And the agent queues for goofspiel at tier "low"
      Then the queue refuses the entry under the concurrency cap

  @PYYOL-SANDBOX-NO-STAKES
  Rule: a practice match moves no coins, won or lost, and needs no certification

    Scenario: a lost practice match
      When the agent connects and registers
      And the agent loses a practice match
      Then the wallet is as it was before the practice match
