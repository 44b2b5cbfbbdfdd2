@pyyol @pyyol-gateway
Feature: Mafia as the gateway plays it
  A 12-seat hidden-role table: the kit holds one seat as an agent (asking
  for a role in practice), the platform fills the rest, and every view,
  event and the game_end are judged from what that one seat may know.

  Background:
    Given a practice agent key

  @PYYOL-MAFIA-VIEW @PYYOL-MAFIA-ROLE-CASE @PYYOL-MAFIA-LEGAL @PYYOL-MAFIA-ACTIONS @PYYOL-MAFIA-PHASE-NIGHT @PYYOL-MAFIA-NO-ACTION @PYYOL-MAFIA-REF-PRACTICE @PYYOL-MAFIA-REF-BASELINE @PYYOL-MAFIA-REF-DAY
  Rule: every turn view carries the documented fields and exactly the seat's legal actions

    Scenario Outline: the views of a <role>
      When the agent plays a Mafia match as a <role>
      Then every Mafia view followed the turn view rules

      Examples:
        | role      |
        | Mafia     |
        | Detective |
        | Villager  |

  @PYYOL-MAFIA-REDACTED @PYYOL-MAFIA-ALLIES @PYYOL-MAFIA-PRIVATE-OWN @PYYOL-MAFIA-NIGHT-PRIVATE @PYYOL-MAFIA-REF-ALLIES @PYYOL-MAFIA-REF-SEQ
  Rule: a view is redacted to its seat: allies for Mafia only, only its own night results

    Scenario Outline: the redaction of a <role>'s views
      When the agent plays a Mafia match as a <role>
      Then every Mafia view was redacted to the seat

      Examples:
        | role      |
        | Mafia     |
        | Detective |
        | Villager  |

  @PYYOL-MAFIA-EVENTS @PYYOL-MAFIA-EVENT-PHASE @PYYOL-MAFIA-EVENT-MESSAGE @PYYOL-MAFIA-EVENT-VOTE @PYYOL-MAFIA-EVENT-ELIMINATE @PYYOL-MAFIA-EVENT-VICTORY @PYYOL-MAFIA-EVENT-MODERATOR @PYYOL-MAFIA-REF-CAUSE
  Rule: the documented events, in seq order, with their fields

    Scenario: the events of a match
      When the agent plays a Mafia match as a Villager
      Then the Mafia events were the documented events

  @PYYOL-MAFIA-TRANSCRIPT @PYYOL-MAFIA-GAME-END
  Rule: every turn carries the entire public transcript; game_end carries all of it

    Scenario: the transcript
      When the agent plays a Mafia match as a Villager
      Then every Mafia view and the game_end carried the whole transcript

  @PYYOL-MAFIA-PHASES @PYYOL-MAFIA-PHASE-MORNING @PYYOL-MAFIA-DISCUSSION @PYYOL-MAFIA-ROLES @PYYOL-MAFIA-REF-KILL-PICK
  Rule: night, morning, discussion, voting; one kill a night, one message per living seat

    Scenario: the phases of a match
      When the agent plays a Mafia match as a Villager
      Then the phases followed the Mafia cycle

  @PYYOL-MAFIA-ALIVE @PYYOL-MAFIA-KILL-WHEN @PYYOL-MAFIA-DAY
  Rule: an eliminated seat stays out; only the night's kill and the vote eliminate; the day counter keeps time

    Scenario Outline: the eliminations and days of a match played as a <role>
      When the agent plays a Mafia match as a <role>
      Then eliminated seats stayed out and the day counter kept time

      Examples:
        | role     |
        | Doctor   |
        | Villager |

  @PYYOL-MAFIA-VOTE @PYYOL-MAFIA-REF-VOTE-TIE
  Rule: every living seat votes once; the plurality target is eliminated

    Scenario: the votes of a match
      When the agent plays a Mafia match as a Villager
      Then every vote eliminated the plurality target

    Scenario: a vote the agent ties
      When the agent plays Mafia matches as a Detective until it ties a vote
      Then every vote eliminated the plurality target

  @PYYOL-MAFIA-RESULT @PYYOL-MAFIA-WIN-TOWN @PYYOL-MAFIA-WIN-MAFIA @PYYOL-MAFIA-TEAMS @PYYOL-MAFIA-TABLE @PYYOL-MAFIA-REF-REVEAL @PYYOL-MAFIA-REF-DEAL
  Rule: the match ends in result as soon as a team has won

    Scenario Outline: the end of a match played as a <role>
      When the agent plays a Mafia match as a <role>
      Then the match ended as soon as a team had won

      Examples:
        | role     |
        | Mafia    |
        | Villager |
        | Doctor   |

  @PYYOL-MAFIA-INVESTIGATE @PYYOL-MAFIA-PROFILE @PYYOL-MAFIA-PROTECT @PYYOL-MAFIA-PROTECT-SELF @PYYOL-MAFIA-REF-NIGHT-RESULT
  Rule: the night actions have their documented results, privately

    Scenario Outline: the night results of a <role>
      When the agent plays a Mafia match as a <role>
      Then the agent's night actions had their documented results

      Examples:
        | role      |
        | Detective |
        | Doctor    |
        | Sheriff   |

  @PYYOL-MAFIA-MOVE @PYYOL-MAFIA-REF-TARGETS @PYYOL-MAFIA-REF-TEXT
  Rule: a move from the legal list is played as answered

    Scenario: the agent's messages and votes
      When the agent plays a Mafia match as a Villager
      Then the agent's moves were played as answered

  @PYYOL-MAFIA-FALLBACK @PYYOL-MAFIA-REF-FALLBACK
  Rule: a missed or illegal decision takes a safe default and the match goes on

    Scenario: a missed first turn
      When the agent plays a Mafia match as a Villager missing its first turn
      Then the agent's moves were played as answered

    Scenario: an illegal first turn
      When the agent plays a Mafia match as a Villager answering its first turn illegally
      Then the agent's moves were played as answered
