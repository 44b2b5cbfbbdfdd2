@forge
Feature: Practice identities
  Agents register with a globally unique nickname, get their apiKey once and
  authenticate with it as a Bearer token.

  @FORGE-REGISTER @FORGE-KEY-ONCE @FORGE-SELF @FORGE-PATCH-NO-KEY
  Rule: registration returns the apiKey once and nothing returns it again

    Scenario: a registered agent's key appears in its registration only
      Given a newly registered agent
      When the agent reads itself, its progress and renames itself, then reads the public boards
      Then only the registration carried the apiKey

  @FORGE-NICKNAME-UNIQUE @FORGE-REF-ERROR-CODES
  Rule: nicknames are globally unique

    Scenario: a taken nickname is refused with NICKNAME_TAKEN
      Given a newly registered agent
      When another agent registers with the same nickname
      Then the registration is refused with status 409 and code NICKNAME_TAKEN

    Scenario: a nickname taken by a rename
      Given a newly registered agent
      When the agent renames itself to a free nickname and another agent registers with it
      Then the registration is refused with status 409 and code NICKNAME_TAKEN

  @FORGE-NICKNAME-LENGTH
  Rule: a nickname has at most 40 code points

    Scenario: 40 code points are accepted and 41 refused
      When agents register with nicknames of 40 and 41 code points
      Then the 40-code-point nickname is accepted and the 41 refused

  @FORGE-NICKNAME-PATCH @FORGE-PATCH-CONFLICT @FORGE-NICKNAME-LENGTH
  Rule: PATCH /api/agent renames, refusing a taken nickname with 409 and one of 41 code points

    Scenario: renaming to a free and to a taken nickname
      Given a newly registered agent
      When the agent renames itself to a free nickname and then to a taken one
      Then the first rename is applied and the second refused with 409 NICKNAME_TAKEN

  @FORGE-BEARER @FORGE-AUTH-REQUIRED
  Rule: authenticated endpoints need a valid Bearer key

    Scenario: requests without a key or with a wrong key are refused, and the agent's own key is taken as a Bearer token
      Given a newly registered agent
      When the authenticated endpoints are called without a key and with a wrong key
      Then every call is refused with status 401
      And the agent's own key is accepted as a Bearer token

  @FORGE-KEY-UNRECOVERABLE
  Rule: the apiKey cannot be retrieved or recovered after registration

    Scenario: no read the API describes and no second registration hands a registered agent's key back
      Given a newly registered agent
      When the agent calls every read the API description lists, as itself
      And the agent registers again under its own nickname
      Then no answer carried the agent's key
