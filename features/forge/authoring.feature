@forge
Feature: Authoring levels
  Packages are validated before anything is appended; a rejection appends
  nothing, so the runner sends rejected packages to any deployment. An
  accepted package is permanent: against a live target the runner appends
  at most one level, and only with --allow-authoring.

  @FORGE-VALID-SCHEMA
  Rule: a package breaking the schema is rejected

    Scenario: a package without its private part is rejected
      Given a newly registered agent
      When the agent submits a package without its private part
      Then the package is rejected with code SCHEMA_INVALID and the chain is unchanged

  @FORGE-VALID-TYPES
  Rule: an ill-typed oracle is rejected

    Scenario: an oracle taking a modulo by zero is rejected
      Given a newly registered agent
      When the agent submits a package whose oracle takes a modulo by zero
      Then the package is rejected with code DSL_TYPE_ERROR and the chain is unchanged

  @FORGE-DSL-RLE-TERMINAL
  Rule: rle must be the last step

    Scenario: an oracle with a step after rle is rejected
      Given a newly registered agent
      When the agent submits a package whose oracle continues after rle
      Then the package is rejected with code DSL_TYPE_ERROR and the chain is unchanged

  @FORGE-VALID-BOUNDS
  Rule: examples and hidden inputs lie inside the input domain

    Scenario: an example outside the input domain is rejected
      Given a newly registered agent
      When the agent submits a package whose example lies outside its input domain
      Then the package is rejected with code BOUNDS_EXCEEDED and the chain is unchanged

  @FORGE-VALID-200X3
  Rule: the oracle must run on 200 generated legal inputs, not only on the examples

    Scenario: an oracle failing on legal inputs its examples avoid is rejected
      Given a newly registered agent
      When the agent submits a package whose oracle fails on legal inputs its examples avoid
      Then the package is rejected with code VALIDATION_RUN_FAILED and the chain is unchanged

  @FORGE-DSL-OVERFLOW-REJECTED
  Rule: an overflow is rejected, never wrapped

    Scenario: an oracle that overflows on legal inputs is rejected
      Given a newly registered agent
      When the agent submits a package whose oracle overflows, with examples computed by wrapping
      Then the package is rejected with code VALIDATION_RUN_FAILED and the chain is unchanged

  @FORGE-VALID-BUDGET
  Rule: an oracle over the execution budget is rejected

    Scenario: twelve sorts of 64 elements exceed the budget
      Given a newly registered agent
      When the agent submits a package whose oracle exceeds the execution budget
      Then the package is rejected with code EXECUTION_BUDGET_EXCEEDED and the chain is unchanged

  @FORGE-VALID-EXAMPLES @FORGE-DSL-MOD-NONNEG
  Rule: examples must be the oracle's outputs; modulo is non-negative

    Scenario: an example computed with a negative modulo is rejected
      Given a newly registered agent
      When the agent submits a package whose examples take the dividend's sign in mod
      Then the package is rejected with code EXAMPLE_MISMATCH and the chain is unchanged

  @FORGE-DSL-DELTA-NEXT-MINUS-CURRENT
  Rule: adjacent delta is next minus current

    Scenario: an example computed as current minus next is rejected
      Given a newly registered agent
      When the agent submits a package whose examples take deltas as current minus next
      Then the package is rejected with code EXAMPLE_MISMATCH and the chain is unchanged

  @FORGE-DSL-CHUNK-PARTIAL @FORGE-REF-CHUNK-DEFAULT
  Rule: chunk-reduce keeps a partial last chunk unless the package declares otherwise

    Scenario: an example that drops the partial chunk under the default policy is rejected
      Given a newly registered agent
      When the agent submits a package whose examples drop a partial chunk the oracle keeps
      Then the package is rejected with code EXAMPLE_MISMATCH and the chain is unchanged

  @FORGE-IDEMPOTENCY-KEY-FORMAT @FORGE-REF-IDEMPOTENCY-REJECTED
  Rule: an Idempotency-Key is 8 to 128 printable ASCII characters

    Scenario: malformed keys are refused before anything is appended
      Given a newly registered agent
      When the agent submits an acceptable package under malformed Idempotency-Keys
      Then every attempt is refused and the chain is unchanged

    Scenario: keys of exactly 8 and 128 characters are taken like any other key
      Given a newly registered agent
      When the agent sends a package its examples contradict under keys of 8, 20 and 128 characters
      Then the three answers are the same refusal and the chain is unchanged

  @FORGE-APPEND @FORGE-POSITION-TAIL @FORGE-SERVER-POSITION @FORGE-AUTHOR-BOUND @FORGE-AUTHOR-ELIGIBILITY @FORGE-LEGACY-DIFFICULTY-REMOVED @FORGE-IDEMPOTENT-REPLAY @FORGE-IDEMPOTENCY-REUSED @FORGE-IDEMPOTENCY-SCOPE @FORGE-REF-IDEMPOTENCY-NORMALIZED @FORGE-IDEMPOTENCY-KEY-FORMAT
  Rule: one accepted level goes to the tail under its author; a retry with the same key appends nothing

    Scenario: one logical level, retried with one Idempotency-Key
      Given the runner's authored level
      When the author retries it with the same key, with another difficulty, with another body and with its keys reordered
      Then the retries return the original publication or 409 IDEMPOTENCY_KEY_REUSED and append nothing
      And another agent's equal key is not a replay of the author's

  @FORGE-NO-DUPLICATE-NEW-ID @FORGE-ID-NOT-OVERWRITTEN @FORGE-PUBLISHED-IMMUTABLE @FORGE-VALID-DUPLICATE
  Rule: a published id or published content cannot be published again

    Scenario: a copy under a new id and a new content under the published id are rejected
      Given the runner's authored level
      When the author submits its content under a new id and new content under its id
      Then both are rejected and the chain is unchanged

  @FORGE-REPAIR-APPENDS @control
  Rule: a repair is a new id appended at the tail

    Scenario: a repaired level is appended, the original stays
      Given the runner's authored level
      When the author publishes a repaired copy under a new id
      Then the repair is appended at the tail and the original keeps its position

  @FORGE-AUTHOR-RANK @FORGE-SELF-AUTHORED-SKIP @FORGE-SKIP-ACCOUNTING @FORGE-RANK-NO-SKIP-CREDIT
  Rule: authors rank by accepted levels; an author skips its own level without credit

    Scenario: the author's level counts once and the author skips it
      Given the runner's authored level
      When the author plays the chain up to its own level
      Then the author ranking counts the level once
      And the author's progress skips its own level as skipped, not cleared

  @FORGE-PRIVATE-SERVER-ONLY @FORGE-CHAIN-SUMMARY
  Rule: an authored level's private values never leave the server, searched by value

    Scenario: another agent meets the authored level; no answer carries its private values
      Given the runner's authored level
      When another agent plays up to the authored level, probes it, answers it wrongly once and then solves it
      Then no answer of the scenario carries the level's oracle, hidden inputs or expected outputs
      And the chain summary carries no content of a level the runner saw

  @FORGE-DSL-OVERFLOW-REJECTED
  Rule: every arithmetic step takes the safe-integer boundary and refuses one step past it

    Scenario: each arithmetic step at 2^53-1 and past it
      Given a newly registered agent
      When the agent sends, for every arithmetic step, a package reaching the safe-integer boundary and one going past it
      Then each package at the boundary is refused only for its contradicting example and each past it is rejected, the chain unchanged
