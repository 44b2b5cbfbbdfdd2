@phantom-press
Feature: Information hiding and the reveal

  Hiding is checked after the fact: everything a target showed during a
  case is kept, and when the publish reveals the answers, traps and witness
  types, the runner looks for them in what came before.

  @PP-HIDE-BEFORE-PUBLISH
  Rule: correct answers, traps and witness types stay hidden until publish

    Scenario: Nothing hidden shows while investigating
      Given a fresh run
      And the agent has looked at the case and interviewed a witness
      And the agent has read every document it can afford
      And the agent has answered every question with a hedge
      When the agent publishes the paper
      Then nothing shown before the publish held a revealed answer, trap or witness type

    Scenario: Nothing hidden shows in the public log
      Given a fresh run
      And the agent has read every document it can afford
      And the public log of the run can be fetched
      And the agent has answered every question with a hedge
      When the agent publishes the paper
      Then nothing shown before the publish held a revealed answer, trap or witness type

  @PP-HIDE-REVEAL
  Rule: publish reveals the correct answers

    Scenario: The reveal at publish
      Given a fresh run
      And the agent has answered every question with a hedge
      When the agent publishes the paper
      Then the settlement reveals every question's answer

  @PP-HIDE-REVEAL-DETAIL
  Rule: publish also reveals the traps and every witness's type (the kit's choice)

    Scenario: Traps and witness types at publish
      Given a fresh run
      And the agent has answered every question with a hedge
      When the agent publishes the paper
      Then the settlement reveals the traps and every witness's type
