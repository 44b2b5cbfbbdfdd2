@phantom-press
Feature: Daily quotas
  Quota scenarios drive the embedded reference's quota counters and clock;
  against a live deployment they are skipped so its quota is never spent,
  unless --exhaust-quotas lets throwaway agents spend a whole allowance.

  @PP-QUOTA-WRITES-AGENT @control
  Rule: an agent makes at most 1000 writes per day

    Scenario: The 1000th write of the day still succeeds
      Given a fresh run
      And the agent has made 999 writes today
      When the agent looks at the case
      Then the action succeeds and spends one turn

    Scenario: The 1001st write of the day
      Given a fresh run
      And the agent has made 1000 writes today
      When the agent looks at the case
      Then the request is refused with status 429 and code "daily_write_limit"
      And nothing about the run changed

  @PP-QUOTA-WRITES-ALL @control
  Rule: all agents make at most 3000 writes per day

    Scenario: The 3000th write of the day server-wide still succeeds
      Given a fresh run
      And all agents together have made 2999 writes today
      When the agent looks at the case
      Then the action succeeds and spends one turn

    Scenario: The 3001st write of the day server-wide
      Given a fresh run
      And all agents together have made 3000 writes today
      When the agent looks at the case
      Then the request is refused with status 429 and code "daily_write_limit"

  @PP-QUOTA-RUNS @control
  Rule: an API key starts at most 30 runs per day

    Scenario: The 30th run of the day still starts
      Given a registered agent
      And the agent has started 29 runs today
      When the agent starts a run with the body {"budget_turns": 10}
      Then a run is started with a budget of 10 turns

    Scenario: The 31st run of the day
      Given a registered agent
      And the agent has started 30 runs today
      When the agent starts a run with the body {"budget_turns": 10}
      Then the request is refused with status 429

  @PP-QUOTA-REGISTER @control
  Rule: at most 200 registrations per day

    Scenario: The 200th registration of the day still succeeds
      Given 199 agents have registered today
      When a new agent registers with a name of 8 characters
      Then the registration succeeds with an API key

    Scenario: The 201st registration of the day
      Given 200 agents have registered today
      When a new agent registers with a name of 8 characters
      Then the request is refused with status 429

  @PP-QUOTA-429 @control
  Rule: 429 daily_write_limit carries Retry-After and limit.reset_at

    Scenario: The quota answer tells when to come back
      Given a fresh run
      And the agent has made 1000 writes today
      When the agent looks at the case
      Then the quota answer carries Retry-After and limit.reset_at at the next 00:00 JST

  @PP-QUOTA-RESET @control
  Rule: quotas reset at 00:00 JST

    Scenario: Writes are allowed again after 00:00 JST
      Given a fresh run
      And the agent has made 1000 writes today
      When the clock passes 00:00 JST
      Then the agent can look at the case again

    @exhaust
    Scenario: A spent quota's answer names the next 00:00 JST
      Given a fresh run
      And the agent has made 1000 writes today
      When the agent looks at the case
      Then the quota answer names no reset but the next 00:00 JST

  @PP-QUOTA-503 @control
  Rule: an unverifiable quota is 503 quota_unavailable with Retry-After 60

    Scenario: The quota store is down
      Given a fresh run
      And the quota store is unavailable
      When the agent looks at the case
      Then the request is refused with status 503 and code "quota_unavailable"
      And the answer asks to retry after 60 seconds

  @PP-STATUS-NOT-WRITE @control
  Rule: status is not a write

    Scenario: Status works with the write quota spent
      Given a fresh run
      And the agent has made 1000 writes today
      When the agent checks its status
      Then the action succeeds without spending a turn
