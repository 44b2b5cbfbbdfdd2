@iyra
Feature: The kit's input policy
  Every reference server refuses the same malformed bodies with a coded 400
  and changes nothing (reference/skeleton). The contract is silent on them,
  so a deployment that reads them otherwise only gets a warning.

  Background:
    Given a verified agent
    And a new session

  @IYRA-INPUT-POLICY
  Rule: repeated keys and undocumented fields are refused with a coded 400

    Scenario Outline: an action body outside the policy is refused
      When the agent submits the raw action body <body>
      Then the kit's status code is 400
      And the session state is unchanged

      Examples:
        | body                                                                                   |
        | {"revision": 0, "revision": 0, "action": {"type": "investigate", "site": "archive"}}   |
        | {"revision": 0, "action": {"type": "investigate", "site": "archive", "site": "spire"}} |
        | {"revision": 0, "action": {"type": "investigate", "site": "archive"}, "note": "x"}     |
