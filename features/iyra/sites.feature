@iyra
Feature: City sites and chapters
  Each site is inspected once for a fixed effect and reveals its authored
  public account; the chapter follows the latest activity.

  Background:
    Given a verified agent
    And a new session

  @IYRA-SITE-EFFECTS
  Rule: each site has its own effect

    Scenario Outline: inspecting the <site> changes evidence, trust and signal by its effect
      When the agent plays "investigate <site>"
      Then the action is accepted
      And the resources are evidence <evidence>, trust <trust>, signal <signal>

      Examples:
        | site    | evidence | trust | signal |
        | archive | 2        | 0     | 1      |
        | harbor  | 2        | 2     | 0      |
        | spire   | 1        | 0     | 2      |

    Scenario: the three sites' effects add up
      Given the agent has played "investigate archive, investigate spire"
      When the agent plays "investigate harbor"
      Then the resources are evidence 5, trust 2, signal 3

  @IYRA-SITE-ONCE
  Rule: a site is inspected once

    Scenario Outline: a repeat inspection of the <site> is rejected without change
      Given the agent has played "investigate <site>"
      When the agent plays "investigate <site>"
      Then the action is rejected
      And the session state is unchanged

      Examples:
        | site    |
        | archive |
        | harbor  |
        | spire   |

    Scenario: a site named in capitals after its inspection changes nothing
      Given the agent has played "investigate archive"
      When the agent plays "investigate Archive"
      Then the resources are evidence 2, trust 0, signal 1

    Scenario: a site inspected again after another one is rejected without change
      Given the agent has played "investigate archive, investigate spire"
      When the agent plays "investigate archive"
      Then the action is rejected
      And the session state is unchanged

  @IYRA-SITE-REVEAL
  Rule: inspection reveals the site's public account

    Scenario Outline: inspecting the <site> sets its flag, reveals its text and collects it
      When the agent plays "investigate <site>"
      Then the <site> is inspected, its text revealed and collected
      And the other sites are still uninspected with empty text

      Examples:
        | site    |
        | archive |
        | harbor  |
        | spire   |

  @IYRA-CHAPTER-INQUIRY
  Rule: investigating returns the chapter to inquiry even after an alliance

    Scenario: investigating after an alliance returns to inquiry and keeps the coalition
      Given the agent has played "investigate harbor, ally keepers"
      When the agent plays "investigate archive"
      Then the chapter is "inquiry"
      And the allies are "keepers"

    Scenario: investigating after a claim selection returns to inquiry
      Given the agent has played "investigate archive, select_claim relay_fault"
      When the agent plays "investigate spire"
      Then the chapter is "inquiry"

  @IYRA-CHAPTER-NAMES
  Rule: the chapter names the latest activity

    Scenario Outline: after "<actions>" the chapter is <chapter>
      Given the agent has played "<actions>"
      When the agent reads the session
      Then the chapter is "<chapter>"

      Examples:
        | actions                                       | chapter      |
        | investigate archive                           | inquiry      |
        | investigate harbor, ally drifters             | coalition    |
        | select_claim relay_fault                      | deliberation |
        | withdraw                                      | withdrawal   |
        | broadcast                                     | broadcast    |

    Scenario: a new session starts in the arrival chapter
      When the agent reads the session
      Then the chapter is "arrival"

  @IYRA-COLLECTED-SOURCE-IDS
  Rule: collected_sources names the inspected sites by their ids (the kit's choice)

    Scenario: an inspected site is collected under its id
      When the agent plays "investigate spire"
      Then collected_sources names "spire"

  @IYRA-CHAPTER-LATEST
  Rule: the chapter leaves inquiry after any other accepted action

    Scenario Outline: after <action> the chapter is no longer inquiry
      Given the agent has played "investigate harbor"
      When the agent plays "<action>"
      Then the chapter is no longer "inquiry"

      Examples:
        | action                   |
        | ally drifters            |
        | select_claim relay_fault |
        | withdraw                 |
        | broadcast                |
