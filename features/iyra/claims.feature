@iyra
Feature: Claims and corroboration
  A claim is selected explicitly; changing it costs evidence; only the
  Archive and Spire records together corroborate it.

  Background:
    Given a verified agent
    And a new session

  @IYRA-CLAIM-FIRST
  Rule: the first selection costs only one action

    Scenario: the first selection keeps evidence and spends one step
      Given the agent has played "investigate archive"
      When the agent plays "select_claim relay_fault"
      Then the selected claim is "relay_fault"
      And the resources are evidence 2, trust 0, signal 1
      And 2 steps have been used

    Scenario: a first selection with nothing gathered is accepted and keeps evidence at 0
      When the agent plays "select_claim record_omission"
      Then the action is accepted
      And the selected claim is "record_omission"
      And the resources are evidence 0, trust 0, signal 0
      And 1 steps have been used

  @IYRA-CLAIM-CHANGE
  Rule: a change costs one evidence and one action and needs evidence >= 1

    Scenario: changing the claim costs one evidence
      Given the agent has played "investigate archive, select_claim relay_fault"
      When the agent plays "select_claim record_omission"
      Then the selected claim is "record_omission"
      And the resources are evidence 1, trust 0, signal 1
      And 3 steps have been used

    Scenario: changing the claim at exactly evidence 1 is accepted
      Given the agent has played "investigate spire, select_claim relay_fault"
      When the agent plays "select_claim record_omission"
      Then the action is accepted
      And the selected claim is "record_omission"
      And the resources are evidence 0, trust 0, signal 2
      And 3 steps have been used

    Scenario: changing the claim without evidence is rejected without change
      Given the agent has played "select_claim relay_fault"
      When the agent plays "select_claim record_omission"
      Then the action is rejected
      And the session state is unchanged

    Scenario: signal does not stand in for the evidence a change needs
      Given the agent has played "investigate harbor, ally keepers, select_claim relay_fault, select_claim record_omission, select_claim relay_fault"
      When the agent plays "select_claim record_omission"
      Then the action is rejected
      And the session state is unchanged

    Scenario: a change needs evidence, not signal
      Given the agent has played "investigate harbor, select_claim relay_fault"
      When the agent plays "select_claim record_omission"
      Then the action is accepted
      And the resources are evidence 1, trust 2, signal 0

  @IYRA-CLAIM-SAME
  Rule: selecting the same claim again is rejected

    Scenario: re-selecting the selected claim is rejected without change
      Given the agent has played "investigate archive, select_claim record_omission"
      When the agent plays "select_claim record_omission"
      Then the action is rejected
      And the session state is unchanged

    Scenario: re-selecting the claim changed to is rejected without change
      Given the agent has played "investigate archive, select_claim relay_fault, select_claim record_omission"
      When the agent plays "select_claim record_omission"
      Then the action is rejected
      And the session state is unchanged

  @IYRA-CLAIM-EXPLICIT
  Rule: the claim is chosen explicitly, never inferred

    Scenario: gathering every record selects no claim
      Given the agent has played "investigate archive, investigate spire"
      When the agent plays "investigate harbor"
      Then the selected claim is ""

    Scenario: a broadcast without a selected claim is unverified, whatever the records show
      Given the agent has played "investigate archive, investigate spire, investigate harbor, ally keepers"
      When the agent plays "broadcast"
      Then the ending is "unverified_broadcast"
      And the selected claim is ""

  @IYRA-CLAIM-CORROBORATION
  Rule: both the Archive and the Spire records are needed

    Scenario Outline: without the Spire record <claim> is not verified, whichever records the session has
      Given the agent has played "investigate archive, investigate harbor, ally keepers, ally drifters, select_claim <claim>"
      When the agent plays "broadcast"
      Then the ending is "unverified_broadcast"

      Examples:
        | claim           |
        | relay_fault     |
        | record_omission |

  @IYRA-VARIANT-CLAIM
  Rule: each variant's records corroborate one claim

    Scenario Outline: in <variant> the records corroborate <claim>
      Given a new session of the "<variant>" variant
      And the agent has played "investigate archive, investigate spire, investigate harbor, select_claim <claim>"
      When the agent plays "broadcast"
      Then the ending is "truth_released"

      Examples:
        | variant      | claim           |
        | quiet_city   | record_omission |
        | harbor_rumor | record_omission |
        | spire_echo   | relay_fault     |
