@bounty
Feature: The kit's input policy
  The contract does not say what a platform does with a body that repeats
  a key, holds a field its endpoint does not document, is not UTF-8 or is
  larger than any documented body; every reference server refuses them the
  same way (reference/skeleton), with the contract's 400 bad_request, and
  changes nothing. A deployment that reads them otherwise only gets a
  warning.

  @BOUNTY-INPUT-POLICY
  Rule: a listing body outside the policy is refused with 400 bad_request and lists nobody

    Scenario Outline: a listing body that <defect> is refused
      Given a team of 1 agents in a fresh round
      When agent 1 lists with a body that <defect>
      Then the body is refused with 400 bad_request
      And the board does not show agent 1

      Examples:
        | defect                      |
        | repeats its agent_id        |
        | holds an undocumented field |
        | is not UTF-8                |
        | is larger than 64 KiB       |
