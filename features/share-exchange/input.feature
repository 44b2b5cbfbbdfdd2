@share-exchange
Feature: The kit's input policy
  The convention does not say what a responder does with a body that
  repeats a key, holds a field the convention does not name, is not UTF-8
  or is larger than any documented body; every reference server refuses
  them the same way (reference/skeleton), with the convention's 400
  bad_request, and releases nothing. A responder that reads them otherwise
  only gets a warning.

  @SX-INPUT-POLICY
  Rule: a pull outside the policy is refused with 400 bad_request and releases no share

    Scenario Outline: the broker's pull with a body that <defect> is refused
      Given a combinable board whose holder the responder plays
      When the broker pulls share 2 with a body that <defect>
      Then the answer refuses with 400 "bad_request"

      Examples:
        | defect                      |
        | repeats its requester       |
        | holds an undocumented field |
        | is not UTF-8                |
        | is larger than 64 KiB       |
