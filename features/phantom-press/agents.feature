@agent @phantom-press
Feature: The Phantom Press rules for agents
  The contract's rules for agents, audited by the reference server
  (serve --audit). Each scenario plays a scripted agent against the
  reference with the audit on, the quota faults injected where a rule
  needs one; conformance run never selects these scenarios, since they
  check agents, not platforms.

  Rule: the well-behaved agent

    Scenario: An agent that follows every rule gets a clean audit
      Given an agent that plays by the rules
      When it plays against the reference server with the audit on
      Then the audit saw the agent's requests
      And the audit names no rule

  @PP-AGENT-RETRY-AFTER
  Rule: PP-AGENT-RETRY-AFTER no counted write before a daily_write_limit answer's Retry-After

    Scenario: A run started again before Retry-After is named
      Given an agent that starts a run again at once after a daily_write_limit answer
      When it plays against the reference server with the audit on
      Then the audit names PP-AGENT-RETRY-AFTER with the offending request "POST /runs"

  @PP-AGENT-WAIT-503
  Rule: PP-AGENT-WAIT-503 a quota_unavailable answer's Retry-After is waited out before a retry

    Scenario: A retry before a 503's Retry-After is named
      Given an agent that starts a run again at once after a quota_unavailable answer
      When it plays against the reference server with the audit on
      Then the audit names PP-AGENT-WAIT-503 with the offending request "POST /runs"

  @PP-AGENT-BUDGET-TURNS
  Rule: PP-AGENT-BUDGET-TURNS an agent starts a run with budget_turns

    Scenario: A run without budget_turns is named
      Given an agent that starts a run without budget_turns
      When it plays against the reference server with the audit on
      Then the audit names PP-AGENT-BUDGET-TURNS with the offending request "POST /runs"
