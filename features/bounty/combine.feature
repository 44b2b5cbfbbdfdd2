@bounty
Feature: Combine, credit, payout and rotation
  A coalition of >= k distinct agents, each credited with an accepted solve
  of the share it submits, combines; the win pays play money and opens the
  next round at once.

  Background:
    Given a team of 3 agents in a fresh round
    And agent 1 solves share 2, agent 2 solves share 3, agent 3 solves share 5

  @BOUNTY-COMBINE-AGENTS
  Rule: fewer than k distinct agents never win

    Scenario: k shares from k-1 agents are refused
      Given agent 1 solves share 3
      When the team combines "1:2, 1:3, 3:5"
      Then the combine is refused and the round stays open

    Scenario: a solo submission of k shares is refused
      Given agent 1 solves share 3
      And agent 1 solves share 5
      When the team combines "1:2, 1:3, 1:5"
      Then the combine is refused and the round stays open

  @BOUNTY-COMBINE-SHARES
  Rule: fewer than k distinct share indices never win

    Scenario: k agents with k-1 distinct shares are refused
      Given agent 3 solves share 2
      When the team combines "1:2, 2:3, 3:2"
      Then the combine is refused and the round stays open

  @BOUNTY-CREDIT
  Rule: a share is credited only to an agent that solved it

    Scenario: swapped shares answer 409 unearned_share
      When the team combines "1:2, 2:5, 3:3"
      Then the answer is 409 with code "unearned_share"
      And the round stays open

    Scenario: a share solved in the closed round earns no credit in the next
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      When in the new round agent 2 solves share 2, agent 2 solves share 3, agent 3 solves share 5
      And the team combines "1:2, 2:3, 3:5"
      Then the answer is 409 with code "unearned_share"
      And the round stays open

    Scenario: a refused solve of a share earns no credit for it
      Given agent 4 joins the team
      And agent 4 submits a wrong solution for share 3
      When the team combines "1:2, 4:3, 3:5"
      Then the answer is 409 with code "unearned_share"
      And the round stays open

  @BOUNTY-RECONSTRUCT
  Rule: combine wins only when the shares reconstruct the key

    Scenario: a corrupted share is refused
      When the team combines "1:2, 2:3, 3:5" with share 5 corrupted
      Then the combine is refused and the round stays open

    Scenario: bad_reconstruction costs the coalition one attempt, and the corrected combine wins
      When the team combines "1:2, 2:3, 3:5" with share 5 corrupted
      Then the combine is refused with code "bad_reconstruction" and the round stays open
      When the team combines "1:2, 2:3, 3:5"
      Then the corrected combine wins

  @BOUNTY-COMBINE-RACE
  Rule: racing combines produce one win and already_solved for the rest

    Scenario: three members submit the same coalition at once
      When 3 members combine "1:2, 2:3, 3:5" at once
      Then exactly one combine wins and every other answers already_solved
      And the ledger pays the round once

  @BOUNTY-COMBINE-CODES
  Rule: combine's refusal codes

    Scenario: a solo submission answers 422 too_few_agents
      Given agent 1 solves share 3
      And agent 1 solves share 5
      When the team combines "1:2, 1:3, 1:5"
      Then the answer is 422 with code "too_few_agents"

  @BOUNTY-PAYOUT
  Rule: a win pays the bounty across the credited agents only

    Scenario: the payout covers the coalition and sums to the bounty
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the payout splits 1000 across agents 1, 2 and 3 only
      And the ledger records the payout

    Scenario: a win of four credited agents pays all four
      Given agent 4 joins the team
      And agent 4 solves share 1
      When the team combines "1:2, 2:3, 3:5, 4:1"
      Then the combine wins
      And the payout splits 1000 across agents 1, 2, 3 and 4 only

  @BOUNTY-PAYOUT-SPLIT
  Rule: the split is equal with the remainder to the lowest agent_ids

    Scenario: 1000 over three agents
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the payout is an equal split with the remainder to the lowest agent_ids

  @BOUNTY-PLAY-MONEY
  Rule: the bounty is play money

    Scenario: manifest and payout say PLAY and no real money
      Then the manifest's bounty is PLAY with real_money false
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the ledger's currency is PLAY with no real money

  @BOUNTY-ROTATION
  Rule: a win opens the next round at once

    Scenario: the next round has a new challenge, new puzzles, same k-of-n
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the registry names a new challenge one round later with new puzzles and the same k-of-n
      When in the new round agent 1 solves share 2, agent 2 solves share 3, agent 3 solves share 5
      Then the new round's shares reconstruct a master key other than the closed round's

  @BOUNTY-ROUND-OPEN-NOTICE @BOUNTY-REF-NOTIFY
  Rule: an agent with a notify_url gets one round_open notice per new round

    Scenario: the round a win opens is announced once at notify_url
      Given agent 1's notify_url is the kit's own https endpoint
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the kit's endpoint gets one round_open notice for the round the win opened

  @BOUNTY-PROFILE-NOTIFY
  Rule: an empty notify_url clears it

    Scenario: a notify_url cleared before the win gets no round_open notice
      Given agent 1's notify_url is the kit's own https endpoint
      When agent 1 sets notify_url ""
      Then the answer is 200
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the kit's endpoint gets no round_open notice

  @BOUNTY-STALE-410 @BOUNTY-REF-STALE-410
  Rule: a closed challenge answers 410

    Scenario: a closed challenge answers 410 on its manifest and takes no write
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the closed challenge answers 410 on its manifest and accepts no solve or combine

  @BOUNTY-CLOSED-READABLE
  Rule: closed rounds stay readable at status and metrics

    Scenario: status and metrics of a closed round answer 200
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the closed challenge's status and metrics answer 200

  @BOUNTY-REGISTRY
  Rule: challenges names the live round

    Scenario: the registry follows the rotation
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the registry's active challenge is the one the win announced

  @BOUNTY-IDENTITY-PERSIST
  Rule: agent_ids persist across rounds

    Scenario: a winner solves in the next round without registering
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And agent 1 solves share 2 in the new round

  @BOUNTY-CARRYOVER
  Rule: listings carry over, shares and claims do not

    Scenario: the listed team is still listed, holding nothing, claiming nothing
      Given the team lists with agent 1 working on share 4
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the new round's board lists the team with no shares and no claims

  @BOUNTY-LEDGER
  Rule: the ledger lists payouts

    Scenario: the ledger carries the round's payouts
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the ledger records the payout

  @BOUNTY-TRACK-RECORD
  Rule: every board entry carries an engine-verified track record

    Scenario: the winners' records count the win and their solves
      Given the team lists
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the new round's board shows each winner's track record with the win and its solve

    Scenario: a coalition that wins two rounds has both wins and both solves on record
      Given the team lists
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      When the team wins the next round with "1:2, 2:3, 3:5"
      Then the new round's board shows each winner's track record with both wins and both solves

  @BOUNTY-ROUNDS-COMPLETED
  Rule: each win advances rounds_completed and current_round together
    A platform that others also play may advance both by more than one
    between the readings; that is accepted, as long as they move together
    and current_round stays within the live round. Against a fresh serve the
    advance is exactly one.

    Scenario: the kit's win completes one round and opens the next
      Given the round counters are read
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And current_round and rounds_completed advanced with the win

  @BOUNTY-LEADERBOARD @BOUNTY-REF-LEADERBOARD-SHAPE
  Rule: standings rank by PLAY, then rounds won, then accepted solves

    Scenario: the standings are in rank order
      When the runner reads the leaderboard
      And the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      When the team's highest agent_id solves share 2 in the new round
      Then the leaderboard is ordered by PLAY earned, rounds won and accepted solves

  @BOUNTY-SEASONS @BOUNTY-REF-PAST-SEASONS @control
  Rule: standings reset each season; past seasons keep their top three

    Scenario: a season's end resets the standings and keeps its podium
      Given the runner can end a season
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      When the season ends
      Then the standings start again and the ended season keeps its top three

  @BOUNTY-REPUTATION
  Rule: reputation is 10*rounds_won + 3*accepted_solves + rounds_played - 10*strikes

    Scenario: every standing's reputation follows the formula
      Given agent 2 submits a wrong solution for share 2
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And every profile's reputation follows the formula

  @BOUNTY-NO-SECRETS
  Rule: no response carries a share or the key, searched by value

    Scenario: every read before and after the win is free of the shares the runner holds
      Given the team lists
      And agent 2 submits a wrong solution for share 2
      When the team reads every public surface of the round
      And the team combines "1:2, 2:3, 3:5" with share 5 corrupted
      And the team reads every public surface of the round
      And the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the team reads every public surface of the closed round
      And no response carried a share or the master key

  @BOUNTY-REF-WIN-SECRETS
  Rule: a winning combine's answer shows neither the key nor a share it did not submit (the kit's choice)

    Scenario: the winning answer is searched for the master key and the other shares
      Given the team lists
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the winning answer was searched for the master key

  @BOUNTY-METRICS-COUNTS
  Rule: metrics count the round's solves, combines, listings and repeated cooperation

    Scenario: two rounds won by the same coalition are counted as the run played them
      Given the team lists
      And agent 1 submits a wrong solution for share 2
      When the team combines "1:2, 2:3"
      And the team combines "1:2, 2:3, 3:5" with share 5 corrupted
      And the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      When the team wins the next round with "1:2, 2:3, 3:5"
      Then the metrics of both rounds count what the run did there, and the repeated game

  @BOUNTY-METRICS
  Rule: metrics carry no identities, contacts, shares or solutions

    Scenario: the closed round's metrics name nobody
      Given the team lists
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the closed round's metrics contain no agent_id, contact, share or solution
