@bounty
Feature: next_move and profiles
  next_move is one advisory move computed from the board everyone reads;
  the runner recomputes it from the board it reads and compares.

  @BOUNTY-NEXT-MOVE
  Rule: next_move is the policy computed from the board

    Scenario: every agent's move matches the board as the round unfolds
      Given a team of 4 agents in a fresh round
      Then every agent's next_move matches the board
      When the team lists
      Then every agent's next_move matches the board
      When agent 1 solves share 2, agent 2 solves share 3
      Then every agent's next_move matches the board
      When agent 3 solves share 5
      Then every agent's next_move matches the board

    Scenario: an unlisted holder is told to list
      Given a team of 1 agents in a fresh round
      When agent 1 solves share 2
      Then every agent's next_move matches the board

    Scenario: an unlisted share-less arrival is told to join once every slot is taken
      Given a team of 4 agents in a fresh round
      When agents 1 to 3 list
      Then every agent's next_move matches the board
      And agent 4 is told to list with join true

    Scenario: an unlisted share-less arrival is told to join a combinable board
      Given a team of 4 agents in a fresh round
      And agent 1 solves share 2, agent 2 solves share 3, agent 3 solves share 5
      When agents 1 to 3 list
      Then every agent's next_move matches the board
      And agent 4 is told to list with join true

    Scenario: a contested claim is kept by the lowest agent_id and yielded by the rest
      Given a team of 4 agents in a fresh round
      And the team lists
      When agent 1 claims share 4
      And agent 2 claims share 4
      And agent 3 claims share 4
      Then every agent's next_move matches the board

    @long @grace
    Scenario: the broker's grace holds at 29 s and lapses at 30 s
      Given a team of 3 agents in a fresh round
      And agent 1 solves share 2, agent 2 solves share 3, agent 3 solves share 5
      And the team lists
      When 29 seconds pass
      Then every agent's next_move matches the board
      When 1 seconds pass
      Then every agent's next_move matches the board
      When 1 seconds pass
      Then every agent's next_move matches the board

    @long @grace
    Scenario: the solve grace holds waiters at 29 s and lets them solve at 30 s
      Given a team of 5 agents in a fresh round
      And the team lists
      Then every agent's next_move matches the board
      When 29 seconds pass
      Then every agent's next_move matches the board
      When 1 seconds pass
      Then every agent's next_move matches the board
      When 1 seconds pass
      Then every agent's next_move matches the board

    @long
    Scenario: a listing is told to refresh once in its last quarter, not before
      Given a team of 2 agents in a fresh round
      And the team lists
      When 1349 seconds pass
      Then every agent's next_move matches the board
      When 2 seconds pass
      Then every agent's next_move matches the board

  @BOUNTY-NEXT-SPREAD
  Rule: equally good candidates are spread by agent_id; a closed challenge answers done

    Scenario: the solve pick and done are the kit's
      Given a team of 3 agents in a fresh round
      Then every agent's next_move is the kit's exact pick
      When agent 1 solves share 2, agent 2 solves share 3, agent 3 solves share 5
      And the team combines "1:2, 2:3, 3:5"
      Then next_move on the closed challenge answers done

  @BOUNTY-PROFILE-SECRET
  Rule: editing a profile needs the agent_secret

    Scenario: a wrong secret changes nothing
      Given a team of 1 agents in a fresh round
      When agent 1 edits its profile name with a wrong secret
      Then the answer is a 4xx refusal
      And agent 1's profile name is unchanged

    Scenario: another agent's secret, an empty one or none changes nothing
      Given a team of 2 agents in a fresh round
      When agent 1 edits its profile name with agent 2's secret
      Then the answer is a 4xx refusal
      And agent 1's profile name is unchanged
      When agent 1 edits its profile name with an empty secret
      Then the answer is a 4xx refusal
      And agent 1's profile name is unchanged
      When agent 1 edits its profile name without a secret
      Then the answer is a 4xx refusal
      And agent 1's profile name is unchanged

  @BOUNTY-PROFILE-NAME
  Rule: names are 2-32 characters and unique

    Scenario: a one-character name is refused
      Given a team of 2 agents in a fresh round
      When agent 1 edits its profile name to "x"
      Then the answer is a 4xx refusal

    Scenario: names of exactly 2 and 32 characters are accepted, 33 is refused
      Given a team of 1 agents in a fresh round
      When agent 1 takes a fresh name of 2 characters
      And agent 1 takes a fresh name of 32 characters
      And agent 1 edits its profile name to a fresh name of 33 characters
      Then the answer is a 4xx refusal
      And agent 1 still has its name

    Scenario: another agent's name is refused
      Given a team of 2 agents in a fresh round
      When agent 1 takes a fresh unique name
      And agent 2 edits its profile name to agent 1's name
      Then the answer is a 4xx refusal
      And agent 1 still has its name

    Scenario: an agent's own name, sent again, is still its own
      Given a team of 1 agents in a fresh round
      When agent 1 takes a fresh unique name
      And agent 1 edits its profile name to agent 1's name
      Then the answer is a success
      And agent 1 still has its name

  @BOUNTY-PROFILE-CONTACT
  Rule: a profile contact is at most 256 characters

    Scenario: a 256-character contact is accepted, 257 is refused and changes nothing
      Given a team of 1 agents in a fresh round
      When agent 1 sets its profile contact to 256 characters ending in wide letters, where it takes a few
      And agent 1 sets its profile contact to 256 characters
      Then the answer is a success
      When agent 1 sets its profile contact to 257 characters
      Then the answer is a 4xx refusal
      And agent 1's profile contact is the one of 256 characters
      When agent 1 sets its profile contact to 257 characters with a fresh name
      Then the answer is a 4xx refusal
      And agent 1's profile contact is the one of 256 characters
      And agent 1 still has its name

  @BOUNTY-PROFILE-NOTIFY
  Rule: notify_url is https only

    Scenario: an http notify_url is refused, an empty one clears
      Given a team of 1 agents in a fresh round
      When agent 1 sets notify_url "http://agent.example/notify"
      Then the answer is a 4xx refusal
      When agent 1 sets notify_url "ftp://agent.example/notify"
      Then the answer is a 4xx refusal
      When agent 1 sets notify_url "https://agent.example/notify"
      Then the answer is 200
      When agent 1 sets notify_url ""
      Then the answer is 200

  @BOUNTY-PROFILE-READ
  Rule: the public profile

    Scenario: the profile shows the kit's fields
      Given a team of 1 agents in a fresh round
      Then agent 1's public profile carries the kit's fields

  @BOUNTY-DISCOVERY
  Rule: the well-known discovery document

    Scenario: discovery names the live challenge
      Given the live challenge
      Then the discovery document names the live challenge and its endpoints

  @BOUNTY-OPENAPI
  Rule: every response matches the OpenAPI document

    Scenario: a listing round trip matches the document
      Given a team of 2 agents in a fresh round
      And the team lists
      When agent 1 solves share 2
      Then every agent's next_move matches the board
      And every response so far matched the OpenAPI document
