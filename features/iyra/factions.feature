@iyra
Feature: Factions and the coalition
  Trust unlocks alliances; each faction joins once for the same effect.

  Background:
    Given a verified agent
    And a new session

  @IYRA-ALLY-TRUST
  Rule: an alliance needs trust >= 2

    Scenario: allying without trust is rejected without change
      When the agent plays "ally keepers"
      Then the action is rejected
      And the session state is unchanged

    Scenario: allying with evidence and signal but no trust is rejected without change
      Given the agent has played "investigate archive, investigate spire"
      When the agent plays "ally keepers"
      Then the action is rejected
      And the session state is unchanged

    Scenario: allying with trust 2 is accepted
      Given the agent has played "investigate harbor"
      When the agent plays "ally keepers"
      Then the action is accepted
      And the allies are "keepers"

  @IYRA-ALLY-SIGNAL
  Rule: an alliance adds the faction and one signal

    Scenario: allying with the keepers adds them and one signal
      Given the agent has played "investigate harbor"
      When the agent plays "ally keepers"
      Then the allies are "keepers"
      And the resources are evidence 2, trust 2, signal 1

    Scenario: an alliance past the publication signal still adds one
      Given the agent has played "investigate archive, investigate spire, investigate harbor"
      When the agent plays "ally keepers"
      Then the allies are "keepers"
      And the resources are evidence 5, trust 2, signal 4

    Scenario Outline: the second alliance adds one signal too, and no alliance spends trust
      Given the agent has played "investigate harbor, ally <first>"
      When the agent plays "ally <second>"
      Then the resources are evidence 2, trust 2, signal 2

      Examples:
        | first    | second   |
        | keepers  | drifters |
        | drifters | keepers  |

  @IYRA-FACTION-PARITY
  Rule: both factions have the same resource effect

    Scenario Outline: allying with the <faction> has the common effect
      Given the agent has played "investigate harbor"
      When the agent plays "ally <faction>"
      Then the resources are evidence 2, trust 2, signal 1

      Examples:
        | faction  |
        | keepers  |
        | drifters |

  @IYRA-ALLY-REPEAT
  Rule: a faction is recruited once

    Scenario: recruiting the keepers twice is rejected without change
      Given the agent has played "investigate harbor, ally keepers"
      When the agent plays "ally keepers"
      Then the action is rejected
      And the session state is unchanged

    Scenario: recruiting the keepers again after the drifters is rejected without change
      Given the agent has played "investigate harbor, ally keepers, ally drifters"
      When the agent plays "ally keepers"
      Then the action is rejected
      And the session state is unchanged

  @IYRA-ALLY-SET
  Rule: allies is a set

    Scenario: a duplicate recruitment does not add a second entry
      Given the agent has played "investigate harbor, ally drifters"
      When the agent plays "ally drifters"
      Then the allies are "drifters"

    Scenario: both factions appear once each
      Given the agent has played "investigate harbor, ally keepers, ally drifters"
      When the agent reads the session
      Then the allies are "drifters, keepers"

    Scenario: a faction named in capitals after its recruitment adds no second entry
      Given the agent has played "investigate harbor, ally drifters"
      When the agent plays "ally Drifters"
      Then the allies hold each faction once, whatever its case

  @IYRA-FACTION-CONSEQUENCE
  Rule: a verified ending states each ally's publication consequence

    @IYRA-FACTION-PARITY
    Scenario: verified endings with the keepers and with the drifters differ only in their epilogue
      Given the agent has released the truth allied with the keepers
      When the agent releases the truth allied with the drifters in a second session on the same records
      Then both verified endings have the same resources, outcome and score
      And their epilogues differ

    Scenario: verified endings with the same ally on the same records have the same epilogue
      Given the agent has released the truth allied with the keepers
      When the agent releases the truth allied with the keepers in a second session on the same records
      Then their epilogues are identical

    Scenario: a verified ending allied with both factions states both consequences
      Given the agent has released the truth allied with the keepers
      When the agent releases the truth allied with the drifters in a second session on the same records
      And the agent releases the truth allied with both factions in a third session on the same records
      Then the epilogue allied with both differs from each single ally's

  @IYRA-FACTION-WORDS
  Rule: each verified epilogue names its ally's consequence in the contract's words (the kit's reading)

    Scenario: the keepers preserve with a correction, the drifters distribute copies
      Given the agent has released the truth allied with the keepers
      When the agent releases the truth allied with the drifters in a second session on the same records
      Then each epilogue names its ally's consequence in the contract's words
