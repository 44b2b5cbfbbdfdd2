@forge
Feature: Playing the chain
  Every agent plays its current unlocked level in sessions opened with the
  exact body {}, probes with legal inputs distinct from the challenge
  inputs, and submits once.

  @FORGE-PROGRESS @FORGE-SESSION-CURRENT @FORGE-SESSION-PUBLIC-VIEW @FORGE-PRIVATE-SERVER-ONLY @FORGE-NO-DIFFICULTY-TIERS @FORGE-LEGACY-DIFFICULTY-HIDDEN
  Rule: progress shows the current level's public view only

    Scenario: a new agent's progress shows its first level and nothing private
      Given a newly registered agent
      When the agent reads its progress and opens a session
      Then the progress is continuous and shows only the current level
      And no answer carries private material or a difficulty

  @FORGE-SESSION-CURRENT @FORGE-SESSION-EMPTY-BODY @FORGE-NO-LEVEL-SELECTION @FORGE-REF-SESSION-LEVELID
  Rule: a session serves the current level and its body is exactly {}

    Scenario: {} opens the current level and a levelId opens no other
      Given a newly registered agent
      When the agent opens a session with {} and then one naming the next level
      Then the {} session serves the current level and the named level opens nothing else

    Scenario: a level named in the query string is not served
      Given a newly registered agent
      When the agent opens a session with {} naming the next level in the query string
      Then the session is refused or serves the agent's current level

    Scenario: another agent's session is not played
      Given two newly registered agents
      When the first agent clears its level and opens a session on the next, and the second probes that session
      Then the second agent's probe is refused

  @FORGE-SESSION-PUBLIC-VIEW @FORGE-PRIVATE-SERVER-ONLY
  Rule: progress and sessions show the current level only, never a cleared one, nor its expected outputs

    Scenario: after a clear, progress and the next session show nothing of the cleared level
      Given a newly registered agent
      When the agent solves its current level
      Then its progress and its next session show nothing of the cleared level
      And no answer before the submission carried the level's expected outputs

  @FORGE-CHAIN-LINEAR @FORGE-PUBLISHED-IMMUTABLE
  Rule: every agent meets the same levels in the same order, and a published level never changes

    Scenario: two agents meet the same first two levels, unchanged between reads
      Given two newly registered agents
      When the first agent clears its level while the second looks on, then the second clears its own
      Then each position showed both agents the same level, unchanged between reads

  @FORGE-QUERY @FORGE-PROBE-DISTINCT
  Rule: legal probes are answered, challenge inputs never

    Scenario: a challenge input is refused as a probe
      Given a newly registered agent with an open session
      When the agent probes a challenge input, then a legal distinct input and a challenge input reordered
      Then the challenge input is refused and both distinct probes answered

  @FORGE-QUERY-BUDGET @FORGE-REF-BUDGETS
  Rule: a session's query budget is enforced

    Scenario: the query past the budget is refused
      Given a newly registered agent with an open session
      When the agent spends the whole query budget and probes once more
      Then the extra probe is refused
      And a new session of the level, once the spent one is submitted, answers its first probe

  @FORGE-EXPIRY
  Rule: an expired session takes no query and no submission

    @long
    Scenario: a session past its lifetime refuses probes
      Given a newly registered agent with an open session
      When the session's lifetime passes
      Then a probe and a submission are refused

  @FORGE-RATE-LIMIT
  Rule: requests over the rate limit answer 429 with Retry-After

    Scenario: a burst of reads meets the rate limit
      Given a newly registered agent
      When the agent reads its progress 200 times as fast as it can
      Then any 429 answer carries Retry-After

  @FORGE-ONE-SUBMISSION @FORGE-REF-WRONG-SUBMISSION @FORGE-SUBMIT-ADVANCES
  Rule: a session takes one submission

    Scenario: a second submission is refused
      Given a newly registered agent with an open session
      When the agent submits wrong outputs twice
      Then the first is judged wrong without advancing and the second refused

  @FORGE-ONE-SUBMISSION
  Rule: of two submissions racing on one session, one at most is judged

    Scenario: two racing submissions
      Given a newly registered agent with an open session
      When the agent sends two wrong submissions of its session at once
      Then at most one of them is judged

  @FORGE-ORIGINAL-ORDER @FORGE-SUBMIT-ADVANCES @FORGE-SUBMIT-UNLOCKS
  Rule: outputs in the original order clear the level and unlock the next

    Scenario: the right outputs out of order fail, in order they advance
      Given a newly registered agent
      When the agent submits its level's outputs out of order and then in order
      Then only the ordered submission is correct and the next level is unlocked

  @FORGE-FUTURE-LOCKED @FORGE-AT-FRONTIER
  Rule: nothing shows a level before it is unlocked; at the frontier no session opens

    Scenario: solving the chain reveals each level only when it unlocks
      Given a newly registered agent
      When the agent solves level after level
      Then no answer showed a level before it was unlocked
      And at the frontier progress says atFrontier and no session opens

  @FORGE-DISABLED-SKIP @control
  Rule: a disabled level is skipped without solver credit

    Scenario: a disabled next level is skipped
      Given a newly registered agent
      And the level after the agent's current one is disabled
      When the agent solves its current level
      Then its progress skips the disabled level as skipped, not cleared

  @FORGE-INPUT-POLICY
  Rule: malformed bodies are refused with a coded 400 and change nothing

    Scenario: a probe whose body repeats a key is refused and spends no query
      Given a newly registered agent with an open session
      When the agent sends a probe whose body repeats the input key
      Then the probe is refused with a coded 400 and the next probe is the session's first

  @FORGE-ORACLE-DETERMINISTIC
  Rule: the oracle is deterministic

    Scenario: the same probe asked twice gets the same answer
      Given a newly registered agent with an open session
      When the agent asks the same legal probe twice
      Then both answers are the same
