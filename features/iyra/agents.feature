@agent @iyra
Feature: Echoes of Iyra rules for agents
  The contract's rules for agents, audited by the reference server
  (serve --audit). Each scenario plays a scripted agent against the
  reference with the audit on; conformance run never selects these
  scenarios, since they check agents, not platforms.

  Rule: the well-behaved agent

    Scenario: An agent that follows every rule gets a clean audit
      Given an agent that plays by the rules
      When it plays against the reference server with the audit on
      Then the audit saw the agent's requests
      And the audit names no rule

  @IYRA-AGENT-NO-URL-KEY
  Rule: IYRA-AGENT-NO-URL-KEY an agent never puts its key in a URL

    Scenario: The key in a query string is named
      Given an agent that puts its key in the query of a read
      When it plays against the reference server with the audit on
      Then the audit names IYRA-AGENT-NO-URL-KEY with the offending request "GET /store/echoes-of-iyra/assignment"

  @IYRA-AGENT-RETRY-AFTER
  Rule: IYRA-AGENT-RETRY-AFTER an agent writes again only after the 429's retry hint

    Scenario: A write before retry_after_seconds is named
      Given an agent that creates a session again at once after a 429
      When it plays against the reference server with the audit on
      Then the audit names IYRA-AGENT-RETRY-AFTER with the offending request "POST /store/echoes-of-iyra/sessions"

  @IYRA-AGENT-SESSION-KEY-STABLE
  Rule: IYRA-AGENT-SESSION-KEY-STABLE a creation that got no session is repeated under the same Idempotency-Key

    Scenario: A fresh Idempotency-Key for the same intended session is named
      Given an agent that repeats a creation that got no session under a fresh Idempotency-Key
      When it plays against the reference server with the audit on
      Then the audit names IYRA-AGENT-SESSION-KEY-STABLE with the offending request "POST /store/echoes-of-iyra/sessions"

  @IYRA-AGENT-KEY-NOT-REUSED
  Rule: IYRA-AGENT-KEY-NOT-REUSED an Idempotency-Key is never reused for another game or version

    Scenario: A key reused for another version is named
      Given an agent that reuses an Idempotency-Key for another version
      When it plays against the reference server with the audit on
      Then the audit names IYRA-AGENT-KEY-NOT-REUSED with the offending request "POST /store/echoes-of-iyra/sessions"

  @IYRA-AGENT-REVISION-REQUIRED
  Rule: IYRA-AGENT-REVISION-REQUIRED an agent sends revision with each action

    Scenario: An action without revision is named
      Given an agent that sends an action without revision
      When it plays against the reference server with the audit on
      Then the audit names IYRA-AGENT-REVISION-REQUIRED with the offending request "POST /sessions/{id}/actions"

  @IYRA-AGENT-REVISION-BESIDE-ACTION
  Rule: IYRA-AGENT-REVISION-BESIDE-ACTION revision goes beside action, never inside it

    Scenario: Revision nested in the action is named
      Given an agent that puts revision inside the action
      When it plays against the reference server with the audit on
      Then the audit names IYRA-AGENT-REVISION-BESIDE-ACTION with the offending request "POST /sessions/{id}/actions"

  @IYRA-AGENT-READ-AFTER-REJECTION
  Rule: IYRA-AGENT-READ-AFTER-REJECTION an agent reads the session after a rejected or uncertain action

    Scenario: Acting again after a 409 without a read is named
      Given an agent that acts again after a refused action without reading the session
      When it plays against the reference server with the audit on
      Then the audit names IYRA-AGENT-READ-AFTER-REJECTION with the offending request "POST /sessions/{id}/actions"

  @IYRA-AGENT-REPLAY-BEFORE-NEXT
  Rule: IYRA-AGENT-REPLAY-BEFORE-NEXT a finished session's replay is read before the next session

    Scenario: A new session before the replay was read is named
      Given an agent that starts a session before reading the replay of its finished one
      When it plays against the reference server with the audit on
      Then the audit names IYRA-AGENT-REPLAY-BEFORE-NEXT with the offending request "POST /store/echoes-of-iyra/sessions"

  @IYRA-AGENT-NO-REACCEPT
  Rule: IYRA-AGENT-NO-REACCEPT a verified agent reuses its key and does not accept again

    Scenario: Accepting again once verified is named
      Given an agent that reads its assignment with its key and then accepts the task again
      When it plays against the reference server with the audit on
      Then the audit names IYRA-AGENT-NO-REACCEPT with the offending request "POST /tasks/play/accept"
