@iyra
Feature: Endings, score and the terminal state
  Broadcast and withdrawal end the session; the ninth accepted action ends
  it too; a finished session accepts nothing.

  Background:
    Given a verified agent
    And a new session

  @IYRA-BROADCAST-ACCEPTED
  Rule: a broadcast is always accepted

    Scenario: a broadcast with nothing gathered is accepted and ends the session
      When the agent plays "broadcast"
      Then the action is accepted
      And the session is finished

  @IYRA-ENDING-SUCCESS
  Rule: a corroborated claim with evidence >= 4 and signal >= 3 releases the truth

    Scenario: a corroborated, well-supported broadcast releases the truth
      Given the agent has gathered everything and selected the corroborated claim
      When the agent plays "broadcast"
      Then the ending is "truth_released"
      And the outcome is "success"

  @IYRA-ENDING-UNVERIFIED
  Rule: any other broadcast is unverified

    Scenario: broadcasting the uncorroborated claim is unverified
      Given the agent has gathered everything and selected the uncorroborated claim
      When the agent plays "broadcast"
      Then the ending is "unverified_broadcast"
      And the outcome is "failure"

    Scenario: broadcasting the corroborated claim with too little evidence is unverified
      Given a new session of the "spire_echo" variant
      And the agent has played "investigate archive, investigate spire, select_claim relay_fault"
      When the agent plays "broadcast"
      Then the ending is "unverified_broadcast"

  @IYRA-WITHDRAW
  Rule: withdrawing ends without broadcasting

    Scenario: withdrawing is a draw
      Given the agent has played "investigate archive"
      When the agent plays "withdraw"
      Then the ending is "withdrawn"
      And the outcome is "draw"

  @IYRA-BUDGET
  Rule: nine accepted actions exhaust the budget

    Scenario: the ninth accepted action ends the session
      Given the agent has played "investigate archive, investigate harbor, investigate spire, ally keepers, ally drifters, select_claim relay_fault, select_claim record_omission, select_claim relay_fault"
      When the agent plays "select_claim record_omission"
      Then the ending is "budget_exhausted"
      And the session is finished

    Scenario: rejected actions do not spend the budget
      Given the agent has tried "investigate archive, investigate archive, ally keepers, investigate harbor"
      When the agent reads the session
      Then 2 steps have been used

  @IYRA-REASON-CODES
  Rule: the ending is one of the four reason codes

    Scenario Outline: ending by <how> reports a declared reason code
      Given the agent has played "<actions>"
      When the agent reads the session
      Then the ending is one of the declared reason codes

      Examples:
        | how       | actions                 |
        | broadcast | investigate archive, broadcast |
        | withdraw  | withdraw                |

  @IYRA-OUTCOME
  Rule: the outcome follows the ending

    Scenario: a live session is in progress
      When the agent reads the session
      Then the outcome is "in_progress"

    Scenario: an unverified broadcast is a failure
      When the agent plays "broadcast"
      Then the outcome is "failure"

  @IYRA-SCORE
  Rule: the score is the evidence at a verified ending

    Scenario: a verified ending scores its evidence
      Given the agent has gathered everything and selected the corroborated claim
      When the agent plays "broadcast"
      Then the score equals the evidence

    Scenario: an unverified ending scores zero
      Given the agent has played "investigate archive, investigate harbor"
      When the agent plays "broadcast"
      Then the score is 0

  @IYRA-EPILOGUE
  Rule: the epilogue is empty until a broadcast or withdrawal ending

    Scenario: the epilogue is empty while investigating
      When the agent plays "investigate archive"
      Then the epilogue is empty

    Scenario Outline: a <ending> ending sets the epilogue
      When the agent plays "<action>"
      Then the epilogue is set

      Examples:
        | ending    | action    |
        | broadcast | broadcast |
        | withdraw  | withdraw  |

    Scenario: a budget_exhausted ending leaves the epilogue empty
      Given the agent has played "investigate archive, investigate harbor, investigate spire, ally keepers, ally drifters, select_claim relay_fault, select_claim record_omission, select_claim relay_fault"
      When the agent plays "select_claim record_omission"
      Then the epilogue is empty

  @IYRA-TERMINAL-SIGNALS
  Rule: the three terminal signals agree

    Scenario: an active session shows none of the terminal signals
      When the agent plays "investigate archive"
      Then the session is still active

    Scenario: a finished session shows all three terminal signals
      When the agent plays "withdraw"
      Then the session is finished

  @IYRA-TERMINAL-REJECTS
  Rule: a finished session accepts no actions

    Scenario: an action after the end is rejected without change
      Given the agent has played "withdraw"
      When the agent plays "investigate archive"
      Then the action is rejected
      And the session state is unchanged
