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

    Scenario Outline: a broadcast of <claim> with evidence short of 4 is accepted and ends the session
      Given the agent has played "investigate archive, select_claim <claim>"
      When the agent plays "broadcast"
      Then the action is accepted
      And the session is finished

      Examples:
        | claim           |
        | relay_fault     |
        | record_omission |

  @IYRA-ENDING-SUCCESS
  Rule: a corroborated claim with evidence >= 4 and signal >= 3 releases the truth

    @IYRA-OUTCOME
    Scenario: a corroborated, well-supported broadcast releases the truth
      Given the agent has gathered everything and selected the corroborated claim
      When the agent plays "broadcast"
      Then the ending is "truth_released"
      And the outcome is "success"

    Scenario: at exactly evidence 4 and signal 3 one claim of the same records releases the truth
      When the agent broadcasts each claim on the same records with "investigate archive, investigate spire, investigate harbor" inspected, after a claim change
      Then both broadcasts were made with evidence 4 and signal 3
      And exactly one of the two broadcasts releases the truth

    Scenario: at evidence 5 and exactly signal 3 one claim of the same records releases the truth
      When the agent broadcasts each claim on the same records with "investigate archive, investigate spire, investigate harbor" inspected
      Then both broadcasts were made with evidence 5 and signal 3
      And exactly one of the two broadcasts releases the truth

  @IYRA-ENDING-UNVERIFIED
  Rule: any other broadcast is unverified

    Scenario: at evidence 3, one short, neither claim of the same records releases the truth
      When the agent broadcasts each claim on the same records with "investigate archive, investigate spire" inspected
      Then both broadcasts were made with evidence 3 and signal 3
      And neither broadcast releases the truth

    Scenario: at evidence 3 after two changes with every site inspected, neither claim releases the truth
      When the agent broadcasts each claim on the same records with "investigate archive, investigate spire, investigate harbor" inspected, after two claim changes
      Then both broadcasts were made with evidence 3 and signal 3
      And neither broadcast releases the truth

    Scenario: at evidence 2 after a change without the harbor, neither claim releases the truth
      When the agent broadcasts each claim on the same records with "investigate archive, investigate spire" inspected, after a claim change
      Then both broadcasts were made with evidence 2 and signal 3
      And neither broadcast releases the truth

    @IYRA-OUTCOME
    Scenario: broadcasting the uncorroborated claim is unverified
      Given the agent has gathered everything and selected the uncorroborated claim
      When the agent plays "broadcast"
      Then the ending is "unverified_broadcast"
      And the outcome is "failure"

    @IYRA-OUTCOME
    Scenario Outline: broadcasting <claim> with evidence 3 is unverified, whichever records the session has
      Given the agent has played "investigate archive, investigate spire, select_claim <claim>"
      When the agent plays "broadcast"
      Then the ending is "unverified_broadcast"
      And the outcome is "failure"

      Examples:
        | claim           |
        | relay_fault     |
        | record_omission |

  @IYRA-WITHDRAW
  Rule: withdrawing ends without broadcasting

    @IYRA-OUTCOME
    Scenario: withdrawing is a draw
      Given the agent has played "investigate archive"
      When the agent plays "withdraw"
      Then the ending is "withdrawn"
      And the outcome is "draw"

    Scenario: a session no action was taken in can be withdrawn
      When the agent plays "withdraw"
      Then the action is accepted
      And the ending is "withdrawn"

  @IYRA-BUDGET
  Rule: nine accepted actions exhaust the budget

    Scenario: the ninth accepted action ends the session
      Given the agent has played "investigate archive, investigate harbor, investigate spire, ally keepers, ally drifters, select_claim relay_fault, select_claim record_omission, select_claim relay_fault"
      When the agent plays "select_claim record_omission"
      Then the action is accepted
      And the ending is "budget_exhausted"
      And the session is finished

    Scenario: the eighth accepted action leaves the session open
      Given the agent has played "investigate archive, investigate harbor, investigate spire, ally keepers, ally drifters, select_claim relay_fault, select_claim record_omission"
      When the agent plays "select_claim relay_fault"
      Then the action is accepted
      And the session is still active

    Scenario: rejected actions do not spend the budget
      Given the agent has tried "investigate archive, investigate archive, ally keepers, investigate harbor"
      When the agent reads the session
      Then 2 steps have been used

  @IYRA-BUDGET-LAST-ACTION
  Rule: a broadcast or withdrawal as the ninth action keeps its own ending

    Scenario: a withdrawal as the ninth accepted action ends withdrawn
      Given the agent has played "investigate archive, investigate harbor, investigate spire, ally keepers, ally drifters, select_claim relay_fault, select_claim record_omission, select_claim relay_fault"
      When the agent plays "withdraw"
      Then the ending is "withdrawn"
      And the session is finished

  @IYRA-DURATION-LIMIT
  Rule: a session ends once its 180 seconds have passed

    @control
    Scenario: a session read after its time limit has ended
      Given the agent has played "investigate archive"
      And the session's time limit has passed
      When the agent reads the session
      Then the ending is "budget_exhausted"
      And the session is finished

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
        | budget    | investigate archive, investigate harbor, investigate spire, ally keepers, ally drifters, select_claim relay_fault, select_claim record_omission, select_claim relay_fault, select_claim record_omission |

  @IYRA-OUTCOME
  Rule: a finished session's outcome follows the objective

    Scenario Outline: a <ending> ending is a <outcome>
      Given the agent has played "<actions>"
      When the agent reads the session
      Then the ending is "<ending>"
      And the outcome is "<outcome>"

      Examples:
        | actions                      | ending               | outcome |
        | broadcast                    | unverified_broadcast | failure |
        | investigate harbor, withdraw | withdrawn            | draw    |

    Scenario: a budget_exhausted ending is a failure
      Given the agent has played "investigate archive, investigate harbor, investigate spire, ally keepers, ally drifters, select_claim relay_fault, select_claim record_omission, select_claim relay_fault"
      When the agent plays "select_claim record_omission"
      Then the ending is "budget_exhausted"
      And the outcome is "failure"

  @IYRA-OUTCOME-IN-PROGRESS
  Rule: an active session is in progress

    Scenario: a live session is in progress
      When the agent reads the session
      Then the outcome is "in_progress"

  @IYRA-SCORE
  Rule: the score is the evidence at a verified ending

    Scenario: a verified ending scores its evidence
      Given the agent has gathered everything and selected the corroborated claim
      When the agent plays "broadcast"
      Then the score equals the evidence

    Scenario: a verified ending after a claim change scores the evidence it ended with
      Given the agent has gathered everything and changed to the corroborated claim
      When the agent plays "broadcast"
      Then the score equals the evidence

    Scenario: a verified ending with no ally scores its evidence
      Given the agent has gathered every record without an ally and selected the corroborated claim
      When the agent plays "broadcast"
      Then the score equals the evidence

  @IYRA-SCORE-UNVERIFIED
  Rule: every ending but a verified one scores zero

    Scenario Outline: a session ended by <how> scores zero
      Given the agent has played "<actions>"
      When the agent plays "<last>"
      Then the score shown is 0

      Examples:
        | how                   | actions                                  | last      |
        | an unverified broadcast | investigate archive, investigate harbor | broadcast |
        | a withdrawal          | investigate archive, investigate spire   | withdraw  |
        | the budget's ninth step | investigate archive, investigate harbor, investigate spire, ally keepers, ally drifters, select_claim relay_fault, select_claim record_omission, select_claim relay_fault | select_claim record_omission |

  @IYRA-SCORE-ZERO
  Rule: an active session scores zero, and every answer carries a score (the kit's choice)

    Scenario: an active session scores zero
      Given the agent has played "investigate archive"
      When the agent reads the session
      Then the score is 0

  @IYRA-TERMINAL-SUMMARY
  Rule: a finished session carries the terminal summary fields

    Scenario Outline: a session ended by <how> carries outcome, score, ending, allies, epilogue, selected_claim and collected_sources
      Given the agent has played "<actions>"
      When the agent reads the session
      Then the session carries every terminal summary field

      Examples:
        | how       | actions                                                               |
        | broadcast | investigate harbor, ally keepers, select_claim relay_fault, broadcast |
        | withdraw  | investigate archive, withdraw                                         |
        | an untouched withdrawal | withdraw                                                |

  @IYRA-EPILOGUE
  Rule: the epilogue is empty until a broadcast or withdrawal ending

    Scenario: the epilogue is empty while investigating
      When the agent plays "investigate archive"
      Then the epilogue is empty

    Scenario Outline: the epilogue stays empty after <action>
      Given the agent has played "<before>"
      When the agent plays "<action>"
      Then the epilogue is empty

      Examples:
        | before                                        | action                        |
        | investigate harbor                            | ally keepers                  |
        | investigate archive                           | select_claim relay_fault      |
        | investigate archive, select_claim relay_fault | select_claim record_omission  |

    Scenario: a budget_exhausted ending leaves the epilogue empty
      Given the agent has played "investigate archive, investigate harbor, investigate spire, ally keepers, ally drifters, select_claim relay_fault, select_claim record_omission, select_claim relay_fault"
      When the agent plays "select_claim record_omission"
      Then the epilogue is empty

  @IYRA-EPILOGUE-SET
  Rule: a broadcast or withdrawal ending sets an epilogue (the kit's choice)

    Scenario Outline: a <ending> ending sets the epilogue
      When the agent plays "<action>"
      Then the epilogue is set

      Examples:
        | ending    | action    |
        | broadcast | broadcast |
        | withdraw  | withdraw  |

  @IYRA-TERMINAL-SIGNALS
  Rule: the three terminal signals agree

    Scenario: an active session shows none of the terminal signals
      When the agent plays "investigate archive"
      Then the session is still active

    Scenario: a finished session shows all three terminal signals
      When the agent plays "withdraw"
      Then the session is finished

    Scenario Outline: a session finished by <how> shows all three terminal signals
      Given the agent has played "<actions>"
      When the agent plays "<last>"
      Then the session is finished

      Examples:
        | how                     | actions                                                                                                                                                   | last                          |
        | a broadcast             | investigate spire                                                                                                                                         | broadcast                     |
        | the budget's ninth step | investigate archive, investigate harbor, investigate spire, ally keepers, ally drifters, select_claim relay_fault, select_claim record_omission, select_claim relay_fault | select_claim record_omission |

  @IYRA-TERMINAL-REJECTS
  Rule: a finished session accepts no actions

    Scenario: an action after the end is rejected without change
      Given the agent has played "withdraw"
      When the agent plays "investigate archive"
      Then the action is rejected
      And the session state is unchanged

    Scenario Outline: an action after <how> is rejected without change
      Given the agent has played "<actions>"
      When the agent plays "<action>"
      Then the action is rejected
      And the session state is unchanged

      Examples:
        | how                     | actions                                                                                                                                                                                    | action                   |
        | a broadcast             | investigate spire, broadcast                                                                                                                                                               | investigate archive      |
        | the budget's ninth step | investigate archive, investigate harbor, investigate spire, ally keepers, ally drifters, select_claim relay_fault, select_claim record_omission, select_claim relay_fault, select_claim record_omission | select_claim relay_fault |
        | a withdrawal, again     | withdraw                                                                                                                                                                                   | withdraw                 |
        | a broadcast, again      | investigate spire, broadcast                                                                                                                                                               | broadcast                |
        | a broadcast, then a withdrawal | investigate spire, broadcast                                                                                                                                                        | withdraw                 |
        | a withdrawal, then a broadcast | withdraw                                                                                                                                                                            | broadcast                |
        | the budget's ninth step, then a withdrawal | investigate archive, investigate harbor, investigate spire, ally keepers, ally drifters, select_claim relay_fault, select_claim record_omission, select_claim relay_fault, select_claim record_omission | withdraw |
        | a withdrawal, then an alliance | investigate harbor, withdraw                                                                                                                                                            | ally keepers             |
        | a broadcast, then an alliance  | investigate harbor, broadcast                                                                                                                                                           | ally drifters            |

  @IYRA-LEGAL-AFTER-END
  Rule: a finished session lists no legal actions

    Scenario: a withdrawn session lists no legal actions
      Given the agent has played "withdraw"
      When the agent reads the session
      Then legal_actions is empty

    Scenario Outline: a session ended by <how> lists no legal actions
      Given the agent has played "<actions>"
      When the agent reads the session
      Then legal_actions is empty

      Examples:
        | how                     | actions                                                                                                                                                                                    |
        | a broadcast             | investigate spire, broadcast                                                                                                                                                               |
        | the budget's ninth step | investigate archive, investigate harbor, investigate spire, ally keepers, ally drifters, select_claim relay_fault, select_claim record_omission, select_claim relay_fault, select_claim record_omission |
