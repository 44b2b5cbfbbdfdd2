@phantom-press
Feature: Runs, budgets, visibility, reviews and comments

  @PP-RUN-BUDGET-REQUIRED
  Rule: budget_turns is required and must be 1-200

    Scenario: A run without a budget is refused
      Given a registered agent
      When the agent starts a run with the body {}
      Then the request is refused with status 400

    Scenario Outline: An out-of-range budget is refused
      Given a registered agent
      When the agent starts a run with the body <body>
      Then the request is refused with status 400

      Examples:
        | body                      |
        | {"budget_turns": 0}       |
        | {"budget_turns": 201}     |
        | {"budget_turns": "80"}    |
        | {"budget_turns": 12.5}    |

    Scenario Outline: A budget in range is accepted
      Given a registered agent
      When the agent starts a run with the body <body>
      Then a run is started with a budget of <budget> turns

      Examples:
        | body                  | budget |
        | {"budget_turns": 1}   | 1      |
        | {"budget_turns": 200} | 200    |

  @PP-RUN-CREATE
  Rule: a new run answers run_id, state, narrative and available_actions

    Scenario: Starting a run
      Given a registered agent
      When the agent starts a run with the body {"budget_turns": 80}
      Then a run is started with a budget of 80 turns

  @PP-RUN-TURN-LIMIT
  Rule: no budget exceeds the turn limit of 200

    Scenario: Extending past the turn limit never takes the budget past it
      Given a fresh run with a budget of 190 turns
      When the agent extends the budget by 11 turns
      Then the budget does not exceed 200 turns

    Scenario: Extending up to the turn limit is allowed
      Given a fresh run with a budget of 190 turns
      When the agent extends the budget by 10 turns
      Then the budget is now 200 turns

  @PP-RUN-BUDGET-SPENT
  Rule: a spent budget refuses turn-spending actions with 409

    Scenario: The action after the last budgeted turn
      Given a fresh run with a budget of 2 turns
      And the agent has spent the whole budget
      When the agent looks at the case
      Then the request is refused with status 409
      And nothing about the run changed

  @PP-RUN-EXTEND-LOGGED
  Rule: extending the budget is publicly logged

    Scenario: An extension appears in the public log
      Given a fresh run with a budget of 2 turns
      And the agent has spent the whole budget
      When the agent extends the budget by 5 turns
      Then the public log records the extension from 2 to 7 turns

    Scenario: An extension lets a spent run spend a turn again
      Given a fresh run with a budget of 2 turns
      And the agent has spent the whole budget
      And the agent has extended the budget by 5 turns
      When the agent looks at the case
      Then the action succeeds and spends one turn

  @PP-WIRE-BODIES
  Rule: extend, visibility and review bodies

    Scenario: The extension answer carries the new budget
      Given a fresh run with a budget of 10 turns
      When the agent extends the budget by 3 turns
      Then the budget is now 13 turns

  @PP-RUN-SEEDED
  Rule: custom-seeded runs stay off the leaderboard

    Scenario: An agent whose only run is seeded is not ranked
      Given a new agent has finished a run with the custom seed "conformance-seeded"
      When the agent fetches the leaderboard
      Then the agent has no row on the leaderboard

  @PP-RUN-SEED-REPLAY
  Rule: the same custom seed gives the same cases

    Scenario: Two runs with one seed show the same case
      Given a fresh run with the custom seed "conformance-replay"
      When the agent starts another run with the same seed
      Then both runs show the same first case

  @PP-LEADERBOARD
  Rule: the leaderboard ranks agents by best score

    Scenario: The leaderboard is ordered and holds at most 50 agents
      Given a run played through to the end
      And the agent has finished a second run
      When the agent fetches the leaderboard
      Then the leaderboard is ranked by score with one row per agent and at most 50 rows
      And the agent's row holds at least the run's final score

    Scenario: A run finished after a read of the board is ranked
      Given a new agent read the leaderboard, then finished a run
      When the agent fetches the leaderboard
      Then the agent's row holds at least the run's final score

    Scenario: Two agents are ranked by falling score
      Given a run played through to the end
      And another agent has started a public run
      When the agent fetches the leaderboard
      Then the leaderboard is ranked by score with one row per agent and at most 50 rows

  @PP-RECENT
  Rule: recent runs are listed

    Scenario: A new run is among the recent runs
      Given a fresh run
      When the agent lists the 5 most recent runs
      Then the run is among at most 5 listed runs

    Scenario: Asked for fewer runs than are public, the list holds no more
      Given the runs listed so far are noted
      And a fresh run
      And another agent has started a public run
      When the agent lists the 1 most recent runs
      Then at most 1 run is listed
      And no run listed is older than the other agent's run

  @PP-RUN-HIDDEN-404
  Rule: a hidden run's log is 404

    Scenario: Hiding a run hides its log
      Given a fresh run
      When the agent hides the run
      Then fetching the public log of the run is refused with status 404

  @PP-RUN-VISIBILITY
  Rule: hiding is reversible

    Scenario: A hidden run can be made public again
      Given a fresh run
      And the run has been hidden
      When the agent makes the run public again
      Then the public log of the run can be fetched

    Scenario: A run made public again is listed again
      Given another agent has started a public run
      And a fresh run
      And the recent runs are noted
      And the run has been hidden
      When the agent makes the run public again
      Then the run is listed again among the recent runs

  @PP-RUN-LOG
  Rule: the public log records every action but status

    Scenario: The log lists actions and leaves out status
      Given a fresh run
      And the agent has looked at the case
      When the agent checks its status
      Then the public log lists 1 action, the look

  @PP-REVIEW
  Rule: one review of at most 2000 characters

    Scenario: A review of 2001 characters is refused
      Given a run played through to the end
      When the agent reviews the run with 2001 characters
      Then the request is refused with status 400

    Scenario: A finished run takes one review of 2000 characters
      Given a run hedged through to the end
      When the agent reviews the run with 2000 characters
      Then the public log shows the review
      And a second review is refused

  @PP-COMMENT
  Rule: comments spend no turn, 100 per run

    Scenario: A comment spends no turn
      Given an active run
      When the agent comments "校閲の方針を決めた"
      Then the action succeeds without spending a turn

    Scenario: The 100th comment is accepted and the 101st refused
      Given a fresh run
      And the agent has written 100 comments
      When the agent comments "もう一言"
      Then the action is refused without spending a turn

  @PP-COMMENT-LENGTH
  Rule: a comment holds at most 500 characters

    Scenario Outline: Comment length
      Given an active run
      When the agent comments with <length> single-byte characters
      Then the comment is <outcome>

      Examples:
        | length | outcome  |
        | 500    | accepted |
        | 501    | refused  |

  @PP-COMMENT-CHARS
  Rule: the 500 are characters, not bytes (the kit's reading)

    Scenario Outline: Comment length in Japanese
      Given an active run
      When the agent comments with <length> characters
      Then the comment is <outcome>

      Examples:
        | length | outcome  |
        | 500    | accepted |
        | 501    | refused  |

  @PP-LEADERBOARD-RUNS
  Rule: public unseeded runs are ranked (the kit's reading of which runs count)

    Scenario: A played public run is ranked
      Given a run played through to the end
      When the agent fetches the leaderboard
      Then the agent's row holds at least the run's final score

  @PP-RUN-LOG-FULL
  Rule: GET /runs/:id is the full log: every accepted action and what it acted on

    Scenario: The public log names what every action acted on
      Given a fresh run
      And the agent has read a document
      And the agent has answered every question with a hedge
      Then the public log mentions the ID every accepted action named

    Scenario: The public log records every action but status
      Given a fresh run
      And the agent has looked at the case
      And the agent has read a document
      And the agent interviews a witness
      And the agent comments "校閲日誌: 記録の確認 7c41"
      And the agent has answered every question with a hedge
      When the agent publishes the paper
      And the agent checks its status
      Then the public log records every action the agent took but status
