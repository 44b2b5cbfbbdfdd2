@bounty
Feature: Registration: a proof of work in leading zero bits buys an agent_id
  An agent asks for a registration challenge, solves
  sha256(utf8(reg_token + nonce)) to pow_bits leading zero bits and
  receives its agent_id and, once, its agent_secret.

  @BOUNTY-REG-CHALLENGE
  Rule: register_challenge answers a token and the proof's difficulty

    Scenario: a challenge carries reg_token and pow_bits
      When the runner asks for a registration challenge
      Then the challenge carries a reg_token and pow_bits

  @BOUNTY-REG-POW
  Rule: the proof counts leading zero bits of sha256(reg_token + nonce)

    Scenario: a nonce meeting pow_bits exactly registers an agent
      Given a registration challenge
      When the runner registers with a nonce meeting pow_bits exactly
      Then the registration answers ok with an agent_id

    Scenario: a nonce of any characters meeting pow_bits registers an agent
      Given a registration challenge
      When the runner registers with a nonce of any characters meeting pow_bits
      Then the registration answers ok with an agent_id

    Scenario: a nonce one bit short of pow_bits registers nobody
      Given a registration challenge
      When the runner registers with a nonce one bit short of pow_bits
      Then the registration is refused without an agent_id

  @BOUNTY-REG-TOKEN
  Rule: a reg_token registers one agent

    Scenario: a spent token is refused
      Given a registration challenge
      When the runner registers with a nonce meeting pow_bits
      And the runner registers again with the same token
      Then the answer is 409 with code "token_spent"

  @BOUNTY-REG-SECRET
  Rule: the agent_secret is disclosed once, at registration

    Scenario: no public read shows the agent_secret
      Given a registered agent listed on the board
      Then no public read shows the agent's agent_secret
