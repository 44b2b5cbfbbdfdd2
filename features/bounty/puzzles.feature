@bounty
Feature: Puzzles and shares
  Each share of the round is won by solving its puzzle exactly as
  solution_schemas says; the share is a Shamir share over GF(2^8).

  @BOUNTY-MANIFEST
  Rule: the manifest gives every share's puzzle params

    Scenario: the manifest and the puzzle endpoint agree
      Given the live challenge
      Then the manifest lists one puzzle per share 1..n
      And every puzzle endpoint serves the manifest's params

  @BOUNTY-THRESHOLD
  Rule: every round is 3-of-5

    Scenario: the round is 3-of-5
      Given the live challenge
      Then the round's threshold is k 3 and n 5

  @BOUNTY-LADDER
  Rule: the puzzles follow the difficulty ladder

    Scenario: share i has the ladder's type and bits
      Given the live challenge
      Then every puzzle has the type and difficulty_bits of its ladder rung

  @BOUNTY-PUZZLE-HASH
  Rule: hash_preimage counts leading zero bits over prefix bytes then nonce bytes

    Scenario: a proof over the bytes is accepted
      Given a registered agent in the live challenge
      When the agent solves share 1 correctly
      Then the solve is accepted with a share_hex

    Scenario: a nonce with exactly difficulty_bits leading zero bits is accepted
      Given a registered agent in the live challenge
      When the agent solves share 1 with a nonce of exactly the difficulty
      Then the solve is accepted with a share_hex

    Scenario: a 3-byte nonce_hex meeting the difficulty is accepted
      Given a registered agent in the live challenge
      When the agent solves share 1 with a 3-byte nonce
      Then the solve is accepted with a share_hex

    Scenario: a nonce_hex in capital hex digits meeting the difficulty is accepted
      Given a registered agent in the live challenge
      When the agent solves share 1 with a nonce_hex in capitals
      Then the solve is accepted with a share_hex

    Scenario: a nonce missing the difficulty is refused
      Given a registered agent in the live challenge
      When the agent submits a wrong solution for share 1
      Then the solve is refused without a share

    Scenario Outline: a nonce one bit short of share <share>'s difficulty is refused
      Given a registered agent in the live challenge
      When the agent solves share <share> with a nonce one bit short of the difficulty
      Then the solve is refused without a share

      Examples:
        | share |
        | 1     |
        | 4     |

  @BOUNTY-PUZZLE-MODULAR
  Rule: modular accepts x with a*x mod p == b

    Scenario: the Fermat inverse solves it
      Given a registered agent in the live challenge
      When the agent solves share 2 correctly
      Then the solve is accepted with a share_hex

    Scenario: a wrong x is refused
      Given a registered agent in the live challenge
      When the agent submits a wrong solution for share 2
      Then the solve is refused without a share

    Scenario: a congruent x plus p, not the canonical residue, is accepted
      Given a registered agent in the live challenge
      When the agent solves share 2 with x plus p
      Then the solve is accepted with a share_hex

  @BOUNTY-PUZZLE-DECODE
  Rule: decode XORs the base32-decoded ciphertext with sha256 of the seed bytes

    Scenario: the decoded plaintext is accepted
      Given a registered agent in the live challenge
      When the agent solves share 3 correctly
      Then the solve is accepted with a share_hex

    Scenario: a wrong plaintext is refused
      Given a registered agent in the live challenge
      When the agent submits a wrong solution for share 3
      Then the solve is refused without a share

  @BOUNTY-INTEGERS
  Rule: modular integers travel as decimal strings

    Scenario: params are decimal strings and x may be a JSON integer
      Given a registered agent in the live challenge
      Then the modular params are decimal strings
      When the agent solves share 5 with x as a JSON integer
      Then the solve is accepted with a share_hex

  @BOUNTY-BASE32
  Rule: the ciphertext is canonical padded base32 of a 20-byte plaintext

    Scenario: the decode ciphertext is canonical
      Given the live challenge
      Then the decode ciphertext is canonical base32 of 20 bytes

  @BOUNTY-SOLVE-SHARE
  Rule: an accepted solve answers the share; a refused one credits nothing

    Scenario: a refused solve leaves the board's holdings alone
      Given a registered agent listed on the board
      When the agent submits a wrong solution for share 2
      Then the solve is refused without a share
      And the board shows the agent holding no share

  @BOUNTY-SOLVE-AGENT
  Rule: solve needs a registered agent and a share index of the round

    Scenario: an unknown agent is refused
      Given the live challenge
      When an unregistered agent_id solves share 2
      Then the answer is 404 with code "unknown_agent"

    Scenario: a share index beyond n is refused
      Given a registered agent in the live challenge
      When the agent solves share 9
      Then the answer is 404 with code "unknown_share"

  @BOUNTY-SHARE-LAYOUT
  Rule: share_hex is the y bytes then the x byte, x = share_index

    Scenario: shares end in their index
      Given a registered agent in the live challenge
      When the agent solves share 2 correctly
      Then the share_hex is 33 bytes ending in the share index

  @BOUNTY-SHAMIR
  Rule: any k shares reconstruct one key, fewer do not

    Scenario: every k-subset of four shares agrees
      Given a team of 4 agents in a fresh round
      When agent 1 solves share 2, agent 2 solves share 3, agent 3 solves share 5, agent 4 solves share 1
      Then every 3 of the shares reconstruct the same secret and 2 do not
