@phantom-press
Feature: Publishing and settlement

  @PP-PUBLISH-ALL-ANSWERED
  Rule: publish needs every question answered

    Scenario: Publishing with a question unanswered
      Given a fresh run
      And the agent has answered every question but one
      When the agent publishes the paper
      Then the action is refused without spending a turn
      And nothing about the run changed

  @PP-SETTLE-TABLE
  Rule: answers settle exactly by the table

    Scenario: Hedged answers settle by the table
      Given a fresh run
      And the agent has answered every question with a hedge
      When the agent publishes the paper
      Then the settlement matches the table for the revealed answers

    Scenario: Hedging against what an official record says costs trust, whatever the event shape
      Given a fresh run
      And the agent has read every document it can afford
      And the agent has hedged against every official record it read
      When the agent publishes the paper
      Then the publish cost at least 3 trust for every hedge against an official record

    Scenario: Assertions backed by what the agent read settle by the table
      Given a fresh run
      And the agent has read every document it can afford
      And the agent has asserted what it read and hedged the rest
      When the agent publishes the paper
      Then the settlement matches the table for the revealed answers

  @PP-SETTLE-GHOST
  Rule: 真 or 偽 where the answer is 裏取り不能 costs 4 more trust

    Scenario: Hedging true on every question
      Given a fresh run
      And the agent has answered every question with "真 留保"
      When the agent publishes the paper
      Then the settlement matches the table for the revealed answers
      And every ghost answer cost 4 more trust

    Scenario: Hedging false on every question
      Given a fresh run
      And the agent has answered every question with "偽 留保"
      When the agent publishes the paper
      Then the settlement matches the table for the revealed answers
      And every ghost answer cost 4 more trust

    Scenario: Hedging unverifiable on every question
      Given a fresh run
      And the agent has answered every question with "裏取り不能 留保"
      When the agent publishes the paper
      Then the settlement matches the table for the revealed answers

    Scenario: Asserting what the agent read, a single source included
      Given a fresh run
      And the agent has read every document it can afford
      And the agent has asserted what it read and hedged the rest
      When the agent publishes the paper
      Then the settlement matches the table for the revealed answers
      And every asserted ghost cost its misprint and 4 more trust

  @PP-SETTLE-BONUS
  Rule: a cleared case adds 300, the final case 1500 more

    Scenario: Playing all four cases through
      Given a run played through to the end
      When the agent fetches the public log of the run
      Then every cleared case added 300 and the final case 1500 more, and the run was won

  @PP-SETTLE-VICTORY
  Rule: the final case earns its clear bonus beside VICTORY (the kit's reading)

    Scenario: The final case's bonuses
      Given a run played through to the end
      When the agent fetches the public log of the run
      Then the final case added both the clear bonus and the victory bonus

  @PP-TRUST-INIT
  Rule: trust starts at 100 and never exceeds it

    Scenario: A new run starts with full trust
      Given a registered agent
      When the agent starts a run with the body {"budget_turns": 50}
      Then the trust is 100

    Scenario: Trust never rises above 100
      Given a run played through to the end
      When the agent fetches the public log of the run
      Then the trust never exceeded 100

  @PP-SETTLE-FIRED
  Rule: trust 0 fires the trainee

    Scenario: Misprints until trust runs out
      Given a fresh run
      When the agent misprints until it is fired
      Then the run ended with status "fired"
      And further actions are refused with status 409

    Scenario: Trust left between 1 and 10 does not fire
      Given two fresh runs with one custom seed
      When the agent answers the second run, case by case, so that a publish leaves trust between 1 and 10
      Then that run is still active, and its status says so

  @PP-SETTLE-CLAMP
  Rule: trust stops at 0 and a fired case is not cleared

    Scenario: The publish that fires the trainee
      Given a fresh run
      When the agent misprints until it is fired
      Then the last settlement left trust at 0 with no clear bonus

  @PP-SCORE
  Rule: score = points + trust*5 - turns

    Scenario: The score after publishing
      Given a fresh run
      And the agent has answered every question with a hedge
      When the agent publishes the paper
      Then the score is points + trust*5 - turns

    Scenario: The score of a finished run
      Given a run played through to the end
      When the agent fetches the public log of the run
      Then the score is points + trust*5 - turns
