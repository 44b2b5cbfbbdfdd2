@iyra
Feature: The action envelope, revisions and recovery
  Actions travel as {revision, action}; a rejected or uncertain write is
  followed by a read, never by a blind retry.

  Background:
    Given a verified agent
    And a new session

  @IYRA-ACTION-REVISION-PLACEMENT
  Rule: revision goes beside the action, never inside it

    Scenario: a revision inside the action object is refused
      When the agent submits "investigate archive" with the revision inside the action
      Then the action is rejected
      And the session state is unchanged

  @IYRA-ACTION-TYPE-REQUIRED
  Rule: the action needs a type

    Scenario Outline: an action request <problem> is refused
      When the agent submits an action <problem>
      Then the action is rejected
      And the session state is unchanged

      Examples:
        | problem           |
        | without a type    |
        | without an action |
        | outside an action |

  @IYRA-REVISION-STALE
  Rule: a stale or missing revision is refused and changes nothing

    Scenario: a stale revision is refused
      Given the agent has played "investigate archive"
      When the agent submits "investigate harbor" with a stale revision
      Then the action is refused as stale
      And the session state is unchanged

    Scenario: a revision ahead of the latest is refused
      Given the agent has played "investigate archive"
      When the agent submits "investigate harbor" with a revision ahead of the latest
      Then the action is refused as stale
      And the session state is unchanged

    Scenario: a missing revision is refused
      When the agent submits "investigate harbor" without a revision
      Then the action is refused as stale
      And the session state is unchanged

    Scenario Outline: a stale revision is refused for <action> too
      Given the agent has played "investigate archive"
      When the agent submits "<action>" with a stale revision
      Then the action is refused as stale
      And the session state is unchanged

      Examples:
        | action                   |
        | withdraw                 |
        | broadcast                |
        | select_claim relay_fault |
        | ally keepers             |

    Scenario Outline: a missing revision is refused for <action> too
      When the agent submits "<action>" without a revision
      Then the action is refused as stale
      And the session state is unchanged

      Examples:
        | action    |
        | withdraw  |
        | broadcast |

  @IYRA-REVISION-INCREMENT
  Rule: each accepted action adds one to the revision

    Scenario: revision goes up by one per accepted action
      Given the agent has played "investigate archive"
      When the agent plays "investigate spire"
      Then the revision went up by one

  @IYRA-LEGAL-CATALOGUE
  Rule: legal_actions is a catalogue of the declared types and parameter values, not a guarantee

    Scenario: an alliance is listed with its trust precondition before it is possible
      When the agent reads the session
      Then legal_actions lists every declared action type with its parameters and public preconditions

    Scenario: every site stays listed after one is inspected
      Given the agent has played "investigate archive"
      When the agent reads the session
      Then legal_actions lists every declared action type with its parameters and public preconditions

    Scenario: every faction and claim stays listed after an alliance and a selection
      Given the agent has played "investigate harbor, ally keepers, select_claim relay_fault"
      When the agent reads the session
      Then legal_actions lists every declared action type with its parameters and public preconditions

    Scenario: a type outside the catalogue is rejected
      When the agent plays "dance"
      Then the action is rejected
      And the session state is unchanged

    Scenario Outline: a parameter value outside the catalogue is rejected: <action>
      Given the agent has played "investigate harbor"
      When the agent plays "<action>"
      Then the action is rejected
      And the session state is unchanged

      Examples:
        | action             |
        | investigate moon   |
        | ally moon          |
        | select_claim moon  |

  @IYRA-STATUS-CODES
  Rule: the kit's status codes

    Scenario Outline: a <case> answers <status>
      When the agent <request>
      Then the kit's status code is <status>

      Examples:
        | case               | request                                           | status |
        | rule rejection     | plays "ally keepers"                              | 422    |
        | revision conflict  | submits "investigate harbor" with a stale revision | 409    |
        | malformed body     | submits a malformed action body                   | 400    |

  @IYRA-ERROR-BODY
  Rule: error answers carry code and message

    Scenario: a rejected action's body has a code and a message
      When the agent plays "ally keepers"
      Then the action is rejected
      And the error body has a code and a message

    Scenario Outline: a refused read's body has a code and a message: <how>
      When the agent reads its assignment <how>
      Then the request is refused as unauthenticated
      And the error body has a code and a message

      Examples:
        | how                  |
        | without credentials  |
        | with an unknown key  |

  @IYRA-BAD-INPUT
  Rule: malformed input is refused and changes nothing

    Scenario: a malformed body is refused with 400
      When the agent submits a malformed action body
      Then the kit's status code is 400
      And the session state is unchanged

  @IYRA-RATE-LIMIT
  Rule: a 429 answer says when to retry

    @control
    Scenario: a spent session quota answers 429 with a retry hint
      Given the agent's session quota is spent
      When the agent creates a new session
      Then the answer is 429 with retry_after_seconds or retry_at

  @IYRA-RECOVERY-READ
  Rule: after a rejected action the authoritative state is readable and unchanged

    Scenario: a rejected repeat inspection leaves the state readable and unchanged
      Given the agent has played "investigate archive"
      When the agent plays "investigate archive"
      Then the action is rejected
      And the session state is unchanged

  @IYRA-RECOVERY-FALLBACK-PATH
  Rule: the contract's fallback path serves the authoritative state

    Scenario: /sessions/{session_id} answers the state that state_url answers
      Given the agent has played "investigate archive"
      When the agent reads the session at the contract's fallback path
      Then the answer is the session's authoritative state

    Scenario: the fallback path read before and after an action shows the action
      Given a new session
      And the agent has read the session at the contract's fallback path
      And the agent has played "investigate archive"
      When the agent reads the session at the contract's fallback path
      Then the answer is the session's authoritative state

    Scenario: the fallback path of a finished session serves its final state
      Given a new session
      And the agent has read the session at the contract's fallback path
      And the agent has played "investigate archive, withdraw"
      When the agent reads the session at the contract's fallback path
      Then the answer is the session's authoritative state

  @IYRA-RECOVERY-NO-RETRY
  Rule: the platform never retries a refused write on its own

    @control
    Scenario: a creation refused for quota leaves no session, even after the reset
      Given the agent's session quota is spent
      When the agent creates a new session
      Then the creation is refused
      And no session exists for that key
      And no session exists for that key once the quota has reset

  @IYRA-LEGAL-SHAPE
  Rule: legal_actions entries have the kit's shape (the kit's choice)

    Scenario: every entry has parameters and public preconditions, select_claim's named claim
      When the agent reads the session
      Then legal_actions entries have the kit's shape
