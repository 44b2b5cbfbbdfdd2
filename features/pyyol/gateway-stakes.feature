@pyyol @pyyol-gateway @stakes
Feature: Stake tiers
  The admin configures each game's tier menu at runtime; everyone reads the
  enabled tiers. Against a live platform these checks need --admin-token
  and put back the set they found.

  @PYYOL-STAKES-PUBLIC
  Rule: the public menu lists the enabled tiers, strictly increasing

    Scenario: the goofspiel menu
      When anyone reads the stake tiers of goofspiel
      Then the menu lists only enabled tiers, by ordering, strictly increasing

  @PYYOL-STAKES-ADMIN @PYYOL-STAKES-PUBLIC @PYYOL-REF-ADMIN-TOKEN
  Rule: the admin set includes disabled tiers; the public menu does not

    Scenario: a disabled tier
      Given the platform's admin token
      When the admin adds a disabled tier to goofspiel
      Then the admin set shows the disabled tier and the public menu does not

  @PYYOL-STAKES-ADMIN-AUTH
  Rule: the admin API needs the platform's authorization

    Scenario Outline: no token
      When someone without the admin token <action> the goofspiel tiers
      Then the admin call is refused

      Examples:
        | action   |
        | reads    |
        | replaces |

    Scenario Outline: a token that is not the platform's
      When someone with another platform-shaped token <action> the goofspiel tiers
      Then the admin call is refused

      Examples:
        | action   |
        | reads    |
        | replaces |

  @PYYOL-STAKES-POSITIVE @PYYOL-STAKES-UNIQUE @PYYOL-STAKES-INCREASING @PYYOL-REF-STAKES-ERRORS
  Rule: a set that breaks the validation is refused and nothing changes

    Scenario Outline: a set with <problem>
      Given the platform's admin token
      When the admin replaces the goofspiel tiers with <problem>
      Then the tier set is refused and unchanged

      Examples:
        | problem                           |
        | zero coins                        |
        | a repeated key                    |
        | a decreasing amount               |
        | a negative amount                 |
        | an equal amount                   |
        | a repeated key on a disabled tier |
