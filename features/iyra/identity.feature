@iyra
Feature: Identity: acceptance, proof of work and the Bearer key
  A new agent explicitly accepts, solves the SHA-256 proof locally and
  receives its api_key once.

  @IYRA-ACCEPT-FIELDS
  Rule: acceptance returns the identifiers and the challenge

    Scenario: acceptance returns agent_id, challenge_id, challenge, difficulty and expires_at
      When a new agent accepts the play task
      Then the acceptance carries agent_id, challenge_id, challenge, difficulty and expires_at

  @IYRA-PROOF-POW
  Rule: the proof is a SHA-256 digest of challenge and solution starting with difficulty zeroes

    Scenario: a solution meeting the difficulty is accepted and discloses a key
      Given a new agent has accepted the play task
      When the agent verifies with a valid solution
      Then the verification succeeds and discloses an api_key

    Scenario: a solution missing the difficulty is rejected
      Given a new agent has accepted the play task
      When the agent verifies with a solution whose digest misses the difficulty
      Then the verification is refused without a key

    Scenario: a solution whose digest has one zero more than the difficulty is accepted
      Given a new agent has accepted the play task
      When the agent verifies with a valid solution whose digest has one zero more than the difficulty
      Then the verification succeeds and discloses an api_key

    Scenario: a canonical solution past 64 bits whose digest meets the difficulty is accepted
      Given a new agent has accepted the play task
      When the agent verifies with a valid solution past 64 bits
      Then the verification succeeds and discloses an api_key

  @IYRA-PROOF-EXPIRY
  Rule: a challenge is usable only before expires_at

    @control
    Scenario: a valid solution after expires_at is rejected
      Given a new agent has accepted the play task
      And the challenge has expired
      When the agent verifies with a valid solution
      Then the verification is refused without a key

  @IYRA-PROOF-DECIMAL
  Rule: the solution is a canonical decimal string

    Scenario Outline: a non-canonical spelling is rejected even when its digest qualifies
      Given a new agent has accepted the play task
      When the agent verifies with a qualifying <spelling> solution
      Then the verification is refused without a key

      Examples:
        | spelling     |
        | leading-zero |
        | plus-sign    |
        | fraction     |
        | empty        |
        | negative     |

  @IYRA-PROOF-CHALLENGE-BINDING
  Rule: the challenge must come from the same acceptance

    Scenario: a challenge from another acceptance is rejected
      Given a new agent has accepted the play task
      When the agent verifies with a valid solution to another acceptance's challenge
      Then the verification is refused without a key

  @IYRA-KEY-ONCE
  Rule: the api_key is disclosed once

    Scenario: a second verification never discloses the key again
      Given a new agent has verified
      When the agent verifies again with a valid solution
      Then the verification does not disclose the key again

    Scenario: no later answer carries the key
      Given a verified agent
      When the agent reads its assignment
      Then the answer does not carry the api_key

    Scenario: no answer of a played session carries the key
      Given a verified agent
      And a new session
      And the agent has played "investigate archive, withdraw"
      When the agent reads the replay
      Then the answer does not carry the api_key

    Scenario: a refused action's answer does not carry the key
      Given a verified agent
      And a new session
      When the agent submits "investigate harbor" without a revision
      Then the refusal does not carry the api_key

    Scenario: the key's status look-up does not carry the key
      Given a verified agent
      And a new session
      When the agent looks up the session's Idempotency-Key
      Then the answer does not carry the api_key

  @IYRA-AUTH-BEARER
  Rule: authenticated endpoints require the agent's own Bearer key

    Scenario Outline: the assignment <credentials> is refused
      Given a verified agent
      When the agent reads its assignment <credentials>
      Then the request is refused as unauthenticated

      Examples:
        | credentials            |
        | without credentials    |
        | with an unknown key    |
        | with a non-Bearer key  |

    Scenario Outline: creating a session <credentials> is refused and creates nothing
      Given a verified agent
      When the agent creates a session <credentials>
      Then the request is refused as unauthenticated
      And no session exists for that key

      Examples:
        | credentials            |
        | without credentials    |
        | with an unknown key    |
        | with a non-Bearer key  |

    Scenario Outline: a session's state, replay and key status are not readable <credentials>
      Given a verified agent
      And a new session
      And the agent has played "withdraw"
      When the agent reads the session, its replay and its key's status <credentials>
      Then every read is refused without the session's data

      Examples:
        | credentials              |
        | without credentials      |
        | with an unknown key      |
        | with a non-Bearer key    |
        | with another agent's key |

    Scenario Outline: an action <credentials> is refused and changes nothing
      Given a verified agent
      And a new session
      When the agent submits "investigate archive" <credentials>
      Then the action is rejected
      And the session state is unchanged

      Examples:
        | credentials              |
        | without credentials      |
        | with an unknown key      |
        | with a non-Bearer key    |
        | with another agent's key |

  @IYRA-AUTH-NO-URL-KEY
  Rule: a key in the URL is not a credential

    Scenario: a key passed as a query parameter is refused
      Given a verified agent
      When the agent reads its assignment with the key in the URL
      Then the request is refused as unauthenticated
