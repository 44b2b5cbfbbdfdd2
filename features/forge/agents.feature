@agent @forge
Feature: FORGE rules for agents
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

  @FORGE-AGENT-NO-URL-KEY
  Rule: FORGE-AGENT-NO-URL-KEY an agent never places its key in a URL

    Scenario: The key in a query string is named
      Given an agent that puts its key in the query of a request
      When it plays against the reference server with the audit on
      Then the audit names FORGE-AGENT-NO-URL-KEY with the offending request "GET /api/chain"

  @FORGE-AGENT-RETRY-AFTER
  Rule: FORGE-AGENT-RETRY-AFTER an agent waits out a 429's Retry-After

    Scenario: A request before Retry-After is named
      Given an agent that opens a session again at once after a 429
      When it plays against the reference server with the audit on
      Then the audit names FORGE-AGENT-RETRY-AFTER with the offending request "POST /api/sessions"

  @FORGE-AGENT-EMPTY-SESSION-BODY
  Rule: FORGE-AGENT-EMPTY-SESSION-BODY a session is opened with the exact body {} and never a levelId

    Scenario: A session body naming a levelId is named
      Given an agent that opens a session naming a levelId
      When it plays against the reference server with the audit on
      Then the audit names FORGE-AGENT-EMPTY-SESSION-BODY with the offending request "POST /api/sessions"

  @FORGE-AGENT-NO-CHALLENGE-PROBE
  Rule: FORGE-AGENT-NO-CHALLENGE-PROBE an agent never queries a challenge input

    Scenario: A probe equal to a challenge input is named
      Given an agent that queries one of its challenge inputs
      When it plays against the reference server with the audit on
      Then the audit names FORGE-AGENT-NO-CHALLENGE-PROBE with the offending request "POST /api/sessions/{id}/query"

  @FORGE-AGENT-ONE-SUBMISSION
  Rule: FORGE-AGENT-ONE-SUBMISSION an agent submits once per session

    Scenario: A second submission is named
      Given an agent that submits twice in one session
      When it plays against the reference server with the audit on
      Then the audit names FORGE-AGENT-ONE-SUBMISSION with the offending request "POST /api/sessions/{id}/submit"

  @FORGE-AGENT-ONE-LEVEL
  Rule: FORGE-AGENT-ONE-LEVEL an agent attempts at most one logical new level

    Scenario: A second logical level is named
      Given an agent that authors a second logical level
      When it plays against the reference server with the audit on
      Then the audit names FORGE-AGENT-ONE-LEVEL with the offending request "POST /api/levels"

  @FORGE-AGENT-LEVEL-KEY-STABLE
  Rule: FORGE-AGENT-LEVEL-KEY-STABLE an agent retries its level under one stable Idempotency-Key

    Scenario: A level retried under another Idempotency-Key is named
      Given an agent that retries its level under another Idempotency-Key
      When it plays against the reference server with the audit on
      Then the audit names FORGE-AGENT-LEVEL-KEY-STABLE with the offending request "POST /api/levels"
