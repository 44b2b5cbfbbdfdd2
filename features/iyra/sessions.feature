@iyra
Feature: Sessions under an Idempotency-Key
  One stable Idempotency-Key names one intended session of one game and
  version; the status look-up recovers it.

  Background:
    Given a verified agent

  @IYRA-SESSION-KEY-REQUIRED
  Rule: creation requires a well-formed Idempotency-Key

    Scenario Outline: a <problem> Idempotency-Key is refused and creates nothing
      When the agent creates a session with a <problem> Idempotency-Key
      Then the creation is refused
      And no session exists for that key

      Examples:
        | problem   |
        | missing   |
        | too-short |
        | spaced    |
        | too-long  |
        | slashed   |
        | accented  |

    Scenario Outline: a well-formed Idempotency-Key of <length> characters creates a session
      When the agent creates a session with a well-formed Idempotency-Key of <length> characters
      Then the response carries the session links and state fields

      Examples:
        | length |
        | 8      |
        | 128    |

  @IYRA-SESSION-KEY-IDEMPOTENT
  Rule: the same key and body return the same session

    Scenario: repeating a creation returns the same session
      Given a new session
      When the agent repeats the creation with the same Idempotency-Key
      Then the same session is returned

    Scenario: a repeat writing the same members in another order returns the same session
      Given a new session
      When the agent repeats the creation with the same Idempotency-Key and its members in another order
      Then the same session is returned

    Scenario: repeating the creation of a finished session returns that session
      Given a new session
      And the agent has played "withdraw"
      When the agent repeats the creation with the same Idempotency-Key
      Then the same session is returned
      And the session is as it was before the repeat

    Scenario: repeating the creation of a session in play leaves its state as it was
      Given a new session
      And the agent has played "investigate archive, investigate harbor"
      When the agent repeats the creation with the same Idempotency-Key
      Then the same session is returned
      And the session is as it was before the repeat

  @IYRA-SESSION-KEY-REUSE @IYRA-REF-SECOND-GAME @IYRA-REF-ROLLOUT
  Rule: a key reused for a different game, version or intended session creates nothing

    Scenario Outline: reusing a key for <other> creates no new session
      Given a new session
      When the agent reuses the Idempotency-Key for <other>
      Then the reuse creates no new session
      And the key still names the original session

      Examples:
        | other                    |
        | another version          |
        | another game             |
        | another intended session |

  @IYRA-IDEMPOTENCY-STATUS
  Rule: the status look-up finds the session a key created

    Scenario: a used key is found with its session
      Given a new session
      When the agent looks up the session's Idempotency-Key
      Then the look-up names the session

    Scenario: a finished session's key is found with its session
      Given a new session
      And the agent has played "withdraw"
      When the agent looks up the session's Idempotency-Key
      Then the look-up names the session

    Scenario: an unused key is not found
      When the agent looks up an unused Idempotency-Key
      Then the look-up reports not found

  @IYRA-IDEMPOTENCY-404
  Rule: an unknown key is answered 404 (the kit's choice)

    Scenario: an unused key is answered 404
      When the agent looks up an unused Idempotency-Key
      Then the look-up answers 404

  @IYRA-SESSION-VERSION
  Rule: accepted_version_id must equal the assignment

    Scenario: a version other than the assigned one is refused
      When the agent creates a session accepting version "xgv_000000000000000000000000"
      Then the creation is refused
      And no session exists for that key

    Scenario: the version assigned for another game is refused
      When the agent creates a session accepting the version assigned for another game
      Then the creation is refused
      And no session exists for that key

    Scenario Outline: the assigned version <how> is refused
      When the agent creates a session accepting the assigned version <how>
      Then the creation is refused
      And no session exists for that key

      Examples:
        | how                             |
        | cut by its last character       |
        | followed by one character more  |

  @IYRA-SESSION-READY
  Rule: creation requires ready_to_act true

    Scenario: ready_to_act false is refused
      When the agent creates a session with ready_to_act false
      Then the creation is refused
      And no session exists for that key

  @IYRA-SESSION-SHAPE
  Rule: session responses carry the links and the state fields

    Scenario: the creation response carries links and state
      When the agent creates a new session
      Then the response carries the session links and state fields

    Scenario: an accepted action's response carries links and state
      Given a new session
      When the agent plays "investigate harbor"
      Then the response carries the session links and state fields

    Scenario: the finishing action's response and a read of the finished session carry links and state
      Given a new session
      When the agent plays "withdraw"
      Then the response carries the session links and state fields
      When the agent reads the session
      Then the response carries the session links and state fields

  @IYRA-OBSERVATION-FIELDS
  Rule: the observation has the declared public fields

    Scenario: a new session starts from the declared initial observation
      When the agent creates a new session
      Then the observation has the declared fields
      And the observation is in its initial state

  @IYRA-VARIANTS
  Rule: each session plays one of the three variants

    Scenario Outline: the <variant> variant can be selected
      When the agent creates a new session of the "<variant>" variant
      Then the session plays the "<variant>" variant

      Examples:
        | variant      |
        | quiet_city   |
        | harbor_rumor |
        | spire_echo   |

  @IYRA-SITE-FACTS-FIXED
  Rule: site facts are fixed for the release

    Scenario: two sessions of the same variant reveal the same facts
      Given a new session
      And the agent has played "investigate archive, investigate harbor, investigate spire"
      When the agent plays the same investigations in a second session of that variant
      Then both sessions revealed identical site facts

    Scenario: a second session inspecting the sites in the reverse order reveals the same facts
      Given a new session
      And the agent has played "investigate archive, investigate harbor, investigate spire"
      When the agent plays the same investigations in the reverse order in a second session of that variant
      Then both sessions revealed identical site facts
