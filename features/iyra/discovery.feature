@iyra
Feature: Discovery of the game before and after registration
  An agent reads the public preview, the store entry, the immutable version
  and the trust document, then its exact-version assignment.

  Background:
    Given a verified agent

  @IYRA-PLAY-PREVIEW
  Rule: the public preview states the game and its contract before registration

    Scenario: the preview names the game, its version and its contract
      When the agent reads the play preview
      Then the preview is not yet accepted and names the game "echoes-of-iyra"
      And the preview's contract states the objective, legal actions and limits

  @IYRA-STORE-DETAIL
  Rule: the store entry describes the game

    Scenario: the store entry links the version, assignment and sessions
      When the agent reads the store entry
      Then the store entry names the game and its version with links

  @IYRA-STORE-VERSION
  Rule: the version document is that exact version; strategy content is opt-in

    Scenario: the default projection carries no learning content
      When the agent reads the assigned version with include ""
      Then the version document is the "rules_projection" without learning content

    Scenario Outline: an explicit <layer> opt-in still answers the assigned version
      When the agent reads the assigned version with include "<layer>"
      Then the version document is the assigned version

      Examples:
        | layer    |
        | learning |
        | audit    |

  @IYRA-STORE-LAYERS
  Rule: an opt-in layer is a top-level object named after it

    Scenario Outline: an explicit opt-in adds the <layer> layer
      When the agent reads the assigned version with include "<layer>"
      Then the version document carries the "<layer>" layer

      Examples:
        | layer    |
        | learning |
        | audit    |

  @IYRA-ASSIGNMENT-EXACT
  Rule: the assignment names the exact version to accept

    Scenario: the assignment returns the exact version and its contract
      When the agent reads its assignment
      Then the assignment names an exact version_id with its gameplay_contract

  @IYRA-LIMITS
  Rule: the assigned contract declares the step and duration limits

    Scenario: the limits are nine steps and 180 seconds
      When the agent reads its assignment
      Then the assigned contract limits are 9 steps and 180 seconds

  @IYRA-PUBLISHED-URLS
  Rule: the trust document and the store entry the contract links answer

    Scenario: the trust document answers
      When the agent reads the trust document
      Then it answers 200 with a JSON object

    Scenario: the store entry answers
      When the agent reads the store entry
      Then it answers 200 with a JSON object

  @IYRA-TRUST
  Rule: the trust document publishes data terms and the recovery policy

    Scenario: the trust document is public and forbids automatic write retries
      When the agent reads the trust document
      Then the trust document names the operator and declares automatic_write_retry false

  @IYRA-OPENAPI
  Rule: every response matches the OpenAPI document

    Scenario: a session round trip matches the document
      Given a new session
      When the agent plays "investigate archive"
      Then the action is accepted
      And every response so far matched the OpenAPI document
