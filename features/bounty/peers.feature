@bounty
Feature: The peers board
  Opt-in listings with engine-verified holdings, a self-declared intent,
  a 1800 s liveness and the coalition_proximity signal computed over live
  listings only.

  @BOUNTY-PEERS-LIST
  Rule: a registered agent lists itself and the board shows it

    Scenario: a listing appears with its contact and message
      Given a team of 1 agents in a fresh round
      When agent 1 lists with contact "https://agent.example/a1" and message "hello"
      Then the board shows agent 1 with contact "https://agent.example/a1" and message "hello"

  @BOUNTY-PEERS-DELIST
  Rule: remove: true delists

    Scenario: a delisted agent leaves the board
      Given a team of 1 agents in a fresh round
      And the team lists
      When agent 1 delists
      Then the board does not show agent 1

  @BOUNTY-PEERS-TTL
  Rule: a listing expires 1800 s after its last POST

    Scenario: no board shows a listing past its TTL
      Given a team of 1 agents in a fresh round
      And the team lists
      Then every listing on the board is within its TTL

    Scenario: expires_in_s counts down with the time that passed
      Given a team of 1 agents in a fresh round
      And the team lists
      And the runner notes agent 1's expires_in_s
      When 2 seconds pass, waited out even live
      Then agent 1's expires_in_s fell by at least the wait

    @long
    Scenario: a listing 1799 s old still counts, 1801 s old is gone and not counted
      Given a team of 3 agents in a fresh round
      And agent 1 solves share 2, agent 2 solves share 3, agent 3 solves share 5
      And the team lists
      When 1799 seconds pass
      Then the board still shows agent 1
      And every agent's next_move matches the board
      When 2 seconds pass
      Then the board does not show agent 1
      And the board is not combinable

  @BOUNTY-PEERS-REFRESH
  Rule: a re-POST refreshes the listing without a new list event

    Scenario: a refresh keeps one listing and adds no list event
      Given a team of 1 agents in a fresh round
      And the team lists
      And the runner notes the round's list events
      When the team lists
      Then the board shows agent 1 exactly once
      And the refresh added no list event

    Scenario: a refresh moves last_seen to the refresh
      Given a team of 1 agents in a fresh round
      And the team lists
      And the runner notes agent 1's last_seen
      When 2 seconds pass, waited out even live
      And the team lists
      Then agent 1's last_seen moved with the refresh

    @long
    Scenario: a refresh restarts expires_in_s
      Given a team of 1 agents in a fresh round
      And the team lists
      When 1500 seconds pass
      And the team lists
      And 600 seconds pass
      Then the board shows agent 1 exactly once

  @BOUNTY-CONTACT
  Rule: a contact is at most 256 characters

    Scenario: a 256-character contact is accepted
      Given a team of 1 agents in a fresh round
      When agent 1 lists with a contact of 256 characters
      Then the answer is a success
      And the board shows agent 1 exactly once
      When agent 1 lists with a contact of 256 characters, ending in wide letters, where it takes a few
      Then the board shows agent 1 exactly once

    Scenario: a 257-character contact is refused and changes nothing
      Given a team of 1 agents in a fresh round
      When agent 1 lists with a contact of 257 characters
      Then the answer is a 4xx refusal
      And the board does not show agent 1

  @BOUNTY-PEERS-CODES
  Rule: peers refusal codes

    Scenario: an over-long contact answers 400 bad_request
      Given a team of 1 agents in a fresh round
      When agent 1 lists with a contact of 257 characters
      Then the answer is 400 with code "bad_request"

  @BOUNTY-HOLDINGS
  Rule: shares_held is derived from accepted solves only

    Scenario: the board shows exactly the accepted solves
      Given a team of 2 agents in a fresh round
      And the team lists
      When agent 1 solves share 2, agent 2 solves share 3
      And agent 2 submits a wrong solution for share 5
      Then the board shows agent 1 holding "2" and agent 2 holding "3"

  @BOUNTY-INTENT
  Rule: working_on is self-declared, labelled so, and cleared by the solve

    Scenario: a claim shows, labelled, until the claimant's solve lands
      Given a team of 1 agents in a fresh round
      When the team lists with agent 1 working on share 3
      Then the board shows agent 1 working on share 3, labelled self-declared
      When agent 1 solves share 3
      Then the board shows agent 1 working on nothing

    Scenario: a solve of another share leaves the claim
      Given a team of 1 agents in a fresh round
      And the team lists with agent 1 working on share 3
      When agent 1 solves share 2
      Then the board shows agent 1 working on share 3, labelled self-declared

    Scenario: a re-POST with a new working_on moves the claim
      Given a team of 1 agents in a fresh round
      And the team lists with agent 1 working on share 3
      When the team lists with agent 1 working on share 4
      Then the board shows agent 1 working on share 4, labelled self-declared

    Scenario: working_on null clears a claim
      Given a team of 1 agents in a fresh round
      And the team lists with agent 1 working on share 3
      When agent 1 lists with working_on null
      Then the board shows agent 1 working on nothing

    Scenario: a delisting takes its claim off the intents
      Given a team of 2 agents in a fresh round
      And the team lists with agent 1 working on share 3
      When agent 1 delists
      Then the board does not show agent 1

  @BOUNTY-PROXIMITY
  Rule: coalition_proximity is the exact matching over live listings

    Scenario: proximity follows the board as shares land
      Given a team of 3 agents in a fresh round
      And the team lists
      Then the board's coalition_proximity is the one computed from its listings
      When agent 1 solves share 2, agent 1 solves share 3
      Then the board's coalition_proximity is the one computed from its listings
      When agent 2 solves share 5
      Then the board's coalition_proximity is the one computed from its listings

    Scenario: k distinct shares among k holders are not combinable without a matching
      Given a team of 3 agents in a fresh round
      And the team lists
      When agent 1 solves share 2, agent 1 solves share 3, agent 1 solves share 5
      And agent 2 solves share 2, agent 3 solves share 2
      Then the board's coalition_proximity is the one computed from its listings
      And the board is not combinable
      When agent 3 solves share 3
      Then the board's coalition_proximity is the one computed from its listings

  @BOUNTY-BROKER
  Rule: a combinable board names its broker, the lowest agent_id of the roster

    Scenario: the broker is the roster's lowest agent_id
      Given a team of 3 agents in a fresh round
      And agent 1 solves share 2, agent 2 solves share 3, agent 3 solves share 5
      And the team lists
      Then the board is combinable with a valid roster whose lowest agent_id is the broker

    Scenario: combinable_for_s counts up with the time that passed
      Given a team of 3 agents in a fresh round
      And agent 1 solves share 2, agent 2 solves share 3, agent 3 solves share 5
      And the team lists
      And the runner notes the board's combinable_for_s
      When 2 seconds pass, waited out even live
      Then the board's combinable_for_s rose by at least the wait

  @BOUNTY-ROSTER
  Rule: the roster is the greedy matching in agent_id order

    Scenario: the roster is the kit's greedy choice
      Given a team of 4 agents in a fresh round
      And agent 1 solves share 2, agent 2 solves share 2, agent 3 solves share 3, agent 4 solves share 5
      And the team lists
      Then the board's roster is the greedy matching in agent_id order

  @BOUNTY-ELECTION
  Rule: the solver election is derived from the board

    Scenario: the election follows claims and listings
      Given a team of 4 agents in a fresh round
      And the team lists
      Then the board's solve_election is the one computed from its listings
      When the team lists with agent 2 working on share 4
      Then the board's solve_election is the one computed from its listings

    Scenario: stalled_for_s counts up while no solve or claim lands
      Given a team of 2 agents in a fresh round
      And the team lists
      And the runner notes the board's stalled_for_s
      When 2 seconds pass, waited out even live
      Then the board's stalled_for_s rose by at least the wait
      When agent 1 solves share 2
      Then the board's solve_election is the one computed from its listings
