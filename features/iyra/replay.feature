@iyra
Feature: Visibility, progress and replay
  Truth and field notes stay private; progress and the replay report the
  run publicly and verifiably.

  Background:
    Given a verified agent
    And a new session

  @IYRA-VISIBILITY
  Rule: truth and field notes never reach public state, endings or replays

    Scenario: a full investigation and verified broadcast reveals nothing private
      Given the agent has gathered everything and selected the corroborated claim
      When the agent plays "broadcast"
      Then no public field reveals the truth or field notes

    Scenario: refusals reveal nothing private
      Given the agent has tried "ally keepers, investigate archive, investigate archive, select_claim relay_fault, select_claim relay_fault"
      When the agent submits "investigate harbor" with a stale revision
      And the agent submits an action without a type
      And the agent submits a malformed action body
      And the agent plays "withdraw"
      And the agent plays "investigate spire"
      And the agent reads the replay
      Then no public field reveals the truth or field notes

    Scenario: the published documents and the assignment reveal nothing private
      When the agent reads the play preview
      And the agent reads the store entry
      And the agent reads the assigned version with include "learning"
      And the agent reads the assigned version with include "audit"
      And the agent reads its assignment
      And the agent reads the trust document
      Then no public field reveals the truth or field notes

    Scenario: the key's status look-up reveals nothing private, in play and after the end
      Given the agent has played "investigate archive, investigate harbor, investigate spire"
      When the agent looks up the session's Idempotency-Key
      And the agent plays "withdraw"
      And the agent looks up the session's Idempotency-Key
      Then no public field reveals the truth or field notes

    Scenario: the replay reveals nothing private
      Given the agent has played "investigate archive, investigate harbor, investigate spire, withdraw"
      When the agent reads the replay
      Then no public field reveals the truth or field notes

  @IYRA-REPLAY
  Rule: the replay carries integrity, outcome, version and ranking eligibility

    Scenario: the replay of a finished session carries the inspection fields
      Given the agent has played "investigate archive, withdraw"
      When the agent reads the replay
      Then the replay carries integrity.verified, outcome, version_id and trusted_ranking_eligible

    Scenario: the replay of a session with refused actions is verified and carries the inspection fields
      Given the agent has tried "ally keepers, investigate archive, investigate archive, select_claim relay_fault, select_claim relay_fault, withdraw"
      When the agent reads the replay
      Then the replay carries integrity.verified, outcome, version_id and trusted_ranking_eligible

    Scenario: the replay of a caller-selected variant carries the inspection fields
      Given a new session of the "quiet_city" variant
      And the agent has played "investigate archive, withdraw"
      When the agent reads the replay
      Then the replay carries integrity.verified, outcome, version_id and trusted_ranking_eligible

  @IYRA-REPLAY-FAITHFUL
  Rule: the replay reports the run as played

    Scenario: the replay of a withdrawn run reports its outcome, ending, version and accepted actions
      Given the agent has tried "investigate archive, investigate archive, ally keepers, investigate harbor, withdraw"
      When the agent reads the replay
      Then the replay reports the session's outcome, ending and version
      And the replay lists exactly the accepted actions

    Scenario: the replay of a broadcast run reports its outcome, ending, version and accepted actions
      Given the agent has tried "investigate archive, select_claim relay_fault, select_claim relay_fault, broadcast"
      When the agent reads the replay
      Then the replay reports the session's outcome, ending and version
      And the replay lists exactly the accepted actions

  @IYRA-NEXT-STEPS-READ-ONLY
  Rule: after a verified replay only read requests are offered

    Scenario: every voluntary next step is a read request
      Given the agent has played "investigate archive, withdraw"
      When the agent reads the replay
      Then every voluntary next step is a read request

  @IYRA-RANKING-SEPARATE
  Rule: ranking eligibility is a check of its own

    Scenario: a verified replay of a caller-selected variant is not ranking-eligible
      Given a new session of the "quiet_city" variant
      And the agent has played "withdraw"
      When the agent reads the replay
      Then the replay is verified but not ranking-eligible

  @IYRA-REPLAY-INTEGRITY
  Rule: the replay's hash chain recomputes

    Scenario: the replay chain recomputes over the accepted actions
      Given the agent has tried "investigate archive, investigate archive, investigate harbor, ally keepers, broadcast"
      When the agent reads the replay
      Then the replay's hash chain recomputes over 4 accepted actions

  @IYRA-PROGRESS
  Rule: progress mirrors the observation

    Scenario: the progress panel mirrors the observation
      Given the agent has played "investigate harbor, ally keepers, select_claim relay_fault"
      When the agent reads the session
      Then the progress panel mirrors the observation

  @IYRA-MILESTONES
  Rule: milestones record the first lead, the coalition and the broadcast decision

    Scenario Outline: after "<actions>" the milestones are <milestones>
      Given the agent has played "<actions>"
      When the agent reads the session
      Then the milestones are "<milestones>"

      Examples:
        | actions                                                              | milestones                                       |
        | select_claim relay_fault                                             |                                                  |
        | investigate harbor                                                   | first_lead                                       |
        | investigate harbor, ally keepers, withdraw                           | first_lead, coalition_formed, broadcast_decision |
        | investigate harbor, investigate archive, ally keepers, ally drifters | first_lead, coalition_formed                     |

  @IYRA-PERSONAL-BEST
  Rule: the replay reports the personal-best dimensions

    Scenario: the replay reports evidence, allies, steps and ending
      Given the agent has played "investigate harbor, ally drifters, withdraw"
      When the agent reads the replay
      Then the personal-best dimensions are evidence 2, allies 1, steps 3, ending "withdrawn"
