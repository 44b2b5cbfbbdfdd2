@agent @bounty
Feature: agent-puzzle-bounty rules for agents
  The manifest's rules for agents, audited by the reference server
  (serve --audit), which names an agent by the agent_id its requests
  carry. Each scenario plays a scripted agent against the reference with
  the audit on; conformance run never selects these scenarios, since they
  check agents, not platforms. Three rules no request shows broken get a
  scenario that plays the break and checks the audit stays silent on it
  rather than guess.

  Rule: the well-behaved agent

    Scenario: An agent that follows every rule gets a clean audit
      Given an agent that plays by the rules
      When it plays against the reference server with the audit on
      Then the audit saw the agent's requests
      And the audit names no rule

  @BOUNTY-AGENT-STALE-410
  Rule: BOUNTY-AGENT-STALE-410 after a 410 an agent takes the active challenge_id and sends the closed round nothing more

    Scenario: A solve on the closed round after its 410 is named
      Given an agent that solves the closed round again after its 410
      When it plays against the reference server with the audit on
      Then the audit names BOUNTY-AGENT-STALE-410 with the offending request "POST /challenge/{cid}/solve"

  @BOUNTY-AGENT-REGISTER-ONCE
  Rule: BOUNTY-AGENT-REGISTER-ONCE an agent registers once and plays every round under its agent_id
    A registration names no agent, so a second one cannot be told from a
    newcomer's: the audit sees two agents playing by the rules.

    Scenario: A second registration is not observable
      Given an agent that registers a second time and plays under the new agent_id
      When it plays against the reference server with the audit on
      Then the audit saw the agent's requests
      And the audit cannot name BOUNTY-AGENT-REGISTER-ONCE from the requests
      And the audit names no rule

  @BOUNTY-AGENT-MANIFEST-FIRST
  Rule: BOUNTY-AGENT-MANIFEST-FIRST an agent reads the manifest or the puzzle before it solves

    Scenario: A solve before any read of the manifest is named
      Given an agent that solves a share before reading the manifest or the puzzle
      When it plays against the reference server with the audit on
      Then the audit names BOUNTY-AGENT-MANIFEST-FIRST with the offending request "POST /challenge/{cid}/solve"

  @BOUNTY-AGENT-CLAIM-BEFORE-GRIND
  Rule: BOUNTY-AGENT-CLAIM-BEFORE-GRIND a listed agent declares working_on for the share it is about to solve

    Scenario: A solve of an undeclared share is named
      Given an agent that lists itself working on one share and solves another
      When it plays against the reference server with the audit on
      Then the audit names BOUNTY-AGENT-CLAIM-BEFORE-GRIND with the offending request "POST /challenge/{cid}/solve"

  @BOUNTY-AGENT-REFRESH
  Rule: BOUNTY-AGENT-REFRESH an agent that stays listed re-posts its listing before it expires
    An agent may let its listing lapse on purpose; only its intent to stay
    listed makes a lapse a break, and no request shows that intent.

    Scenario: A listing never refreshed is not observable
      Given an agent that lists itself once and never re-posts its listing
      When it plays against the reference server with the audit on
      Then the audit saw the agent's requests
      And the audit cannot name BOUNTY-AGENT-REFRESH from the requests
      And the audit names no rule

  @BOUNTY-AGENT-DEFER
  Rule: BOUNTY-AGENT-DEFER an agent told defer does not race the broker's combine
    A combine names the coalition's members, not which of them sent it, so
    a deferring member's race is the broker's combine to the audit.

    Scenario: A member's combine in the broker's place is not observable
      Given an agent that is a coalition member that combines in the broker's place
      When it plays against the reference server with the audit on
      Then the audit saw the agent's requests
      And the audit cannot name BOUNTY-AGENT-DEFER from the requests
      And the audit names no rule

  @BOUNTY-AGENT-WAIT
  Rule: BOUNTY-AGENT-WAIT an agent told wait does not solve on that round within the solve grace

    Scenario: A solve right after a wait is named
      Given an agent that is told wait and solves at once
      When it plays against the reference server with the audit on
      Then the audit names BOUNTY-AGENT-WAIT with the offending request "POST /challenge/{cid}/solve"

  @BOUNTY-AGENT-TRUST-ENDPOINTS
  Rule: BOUNTY-AGENT-TRUST-ENDPOINTS an agent calls only the advertised endpoints

    Scenario: A guessed path is named
      Given an agent that calls a path the platform does not advertise
      When it plays against the reference server with the audit on
      Then the audit names BOUNTY-AGENT-TRUST-ENDPOINTS with the offending request "GET /challenge/{cid}/shares"

  @BOUNTY-AGENT-CONTACT
  Rule: BOUNTY-AGENT-CONTACT a listed contact is at most 256 characters

    Scenario: An overlong contact is named
      Given an agent that lists a contact of 300 characters
      When it plays against the reference server with the audit on
      Then the audit names BOUNTY-AGENT-CONTACT with the offending request "POST /challenge/{cid}/peers"

  @BOUNTY-AGENT-COMBINE-K
  Rule: BOUNTY-AGENT-COMBINE-K an agent combines only >= k distinct agents' accepted solves of >= k shares

    Scenario: A combine of one share is named
      Given an agent that combines its one share alone
      When it plays against the reference server with the audit on
      Then the audit names BOUNTY-AGENT-COMBINE-K with the offending request "POST /challenge/{cid}/combine"
