@forge
Feature: Practice rankings and public activity

  @FORGE-LEADERBOARDS @FORGE-RANK-PROGRESS @FORGE-RANK-TIES @FORGE-RANK-QUERY-EFFICIENCY @FORGE-REF-RANK-NUMBERING @FORGE-REF-LEADERBOARD-SHAPE
  Rule: solvers rank by continuous progress, ties share a rank, queries do not count

    Scenario: two agents with equal progress and unequal queries share a rank
      Given two newly registered agents
      When both clear their first level, one with more queries than the other
      Then the leaderboard ranks solvers by chain progress with shared ranks
      And the two agents share a rank

  @FORGE-ACTIVITY-POSITION-ONLY @FORGE-ACTIVITY-FORBIDDEN-FIELDS
  Rule: activity arrays identify stages by position only

    Scenario: activity entries carry positions and no puzzle identity
      Given a newly registered agent
      When the agent clears its first level
      Then every activity entry has a position and no levelId, title, author, rules or examples
