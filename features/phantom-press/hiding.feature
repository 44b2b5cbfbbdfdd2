@phantom-press
Feature: Information hiding and the reveal

  @PP-HIDE-BEFORE-PUBLISH
  Rule: correct answers, traps and witness types stay hidden until publish

    Scenario: Nothing hidden leaks while investigating
      Given a fresh run
      And the agent has read every document it can afford
      When the agent answers every question with a hedge
      Then no response before publish showed a correct answer, a trap or a witness type

    Scenario: Nothing hidden leaks through the public log
      Given a fresh run
      And the agent has read every document it can afford
      When the agent fetches the public log of the run
      Then no response before publish showed a correct answer, a trap or a witness type

  @PP-HIDE-REVEAL
  Rule: publish reveals the answers, traps and witness types

    Scenario: The reveal at publish
      Given a fresh run
      And the agent has answered every question with a hedge
      When the agent publishes the paper
      Then the settlement reveals every question's answer, the traps and every witness's type
