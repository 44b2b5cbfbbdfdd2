@phantom-press
Feature: The kit's input policy and overflow-safe bounds
  Every reference server refuses the same malformed bodies with a coded 400
  and changes nothing (reference/skeleton); the contract is silent on them,
  so a deployment that reads them otherwise only gets a warning. No
  request, however large its numbers, passes a bound by overflowing it.

  @PP-INPUT-POLICY
  Rule: repeated keys and undocumented fields are refused with a coded 400

    Scenario Outline: An action body outside the policy is refused
      Given an active run
      When the agent sends the raw action body <body>
      Then the request is refused with status 400
      And nothing about the run changed

      Examples:
        | body                                      |
        | {"action": "look", "action": "publish"}   |
        | {"action": "look", "note": "x"}           |

  @PP-RUN-TURN-LIMIT
  Rule: no extension overflows past the turn limit

    Scenario: Extending by the largest integer is refused
      Given a fresh run with a budget of 190 turns
      When the agent extends the budget by 9223372036854775807 turns
      Then the request is refused with status 400
      And the budget is still 190 turns
