@agent @share-exchange
Feature: abp-share-exchange/1 rules for agents
  The convention's rules for agents, audited by the reference responder
  (serve --audit), which names a pull by its requester and an offer by
  its agent_id. Each scenario sets up three agents on the platform beside
  the responder, plays a scripted agent with the audit on, and checks what
  the audit names; conformance run never selects these scenarios.

  Rule: the well-behaved agent

    Scenario: An agent that follows every rule gets a clean audit
      Given an agent that is the elected broker and pulls from the holder
      When it plays against the reference server with the audit on
      Then the audit saw the agent's requests
      And the audit names no rule

  @SX-AGENT-REQUESTER-LISTED
  Rule: SX-AGENT-REQUESTER-LISTED a collector pulls only while it has a live listing

    Scenario: A pull from an unlisted requester is named
      Given an agent that pulls without a listing
      When it plays against the reference server with the audit on
      Then the audit names SX-AGENT-REQUESTER-LISTED with the offending request "POST /"

  @SX-AGENT-OFFERER-HOLDS
  Rule: SX-AGENT-OFFERER-HOLDS a holder offers only while listed and only a share it holds

    Scenario: An offer from an unlisted holder is named
      Given an agent that offers a share without a listing
      When it plays against the reference server with the audit on
      Then the audit names SX-AGENT-OFFERER-HOLDS with the offending request "POST /"

  @SX-AGENT-LIVE-ROUND
  Rule: SX-AGENT-LIVE-ROUND told stale_round, an agent reads the live round before another exchange

    Scenario: Naming the stale round again is named
      Given an agent that names the stale round again after stale_round
      When it plays against the reference server with the audit on
      Then the audit names SX-AGENT-LIVE-ROUND with the offending request "POST /"

  @SX-AGENT-OFFER-ONCE
  Rule: SX-AGENT-OFFER-ONCE a holder offers a share once per round, target and share

    Scenario: A duplicate offer is named
      Given an agent that offers the same share to the same agent twice
      When it plays against the reference server with the audit on
      Then the audit names SX-AGENT-OFFER-ONCE with the offending request "POST /"

  @SX-AGENT-OFFER-TARGET
  Rule: SX-AGENT-OFFER-TARGET a holder offers only to the one collector the policy lets combine

    Scenario: An offer to an agent that may not combine is named
      Given an agent that offers its share to an agent the policy does not let combine
      When it plays against the reference server with the audit on
      Then the audit names SX-AGENT-OFFER-TARGET with the offending request "POST /"

  @SX-AGENT-HTTP-NO-OFFER
  Rule: SX-AGENT-HTTP-NO-OFFER a holder listed with an http(s) contact does not offer

    Scenario: An offer from an https-listed holder is named
      Given an agent that offers a share while listed with an https contact
      When it plays against the reference server with the audit on
      Then the audit names SX-AGENT-HTTP-NO-OFFER with the offending request "POST /"

  @SX-AGENT-PULL-WHEN-TOLD
  Rule: SX-AGENT-PULL-WHEN-TOLD a collector pulls only when next_move would let it combine

    Scenario: A pull by a member that is not the broker is named
      Given an agent that pulls although it is not the elected broker
      When it plays against the reference server with the audit on
      Then the audit names SX-AGENT-PULL-WHEN-TOLD with the offending request "POST /"

  @SX-AGENT-WELL-FORMED
  Rule: SX-AGENT-WELL-FORMED an exchange is a well-formed abp-share-exchange/1 body

    Scenario: An exchange of another protocol version is named
      Given an agent that sends an exchange of another protocol version
      When it plays against the reference server with the audit on
      Then the audit names SX-AGENT-WELL-FORMED with the offending request "POST /"

  @SX-AGENT-PREFER-PULL
  Rule: SX-AGENT-PREFER-PULL a collector pulls a share it can pull rather than take an offered one
    Taking an offer happens inside the collector: the offer goes to the
    collector's own contact, never through the responder, so the audit sees
    only the team's platform requests and must stay silent on the rule.

    Scenario: Taking an offered share instead of pulling is not observable
      Given an agent that is the broker and takes an offered share it could have pulled
      When it plays against the reference server with the audit on
      Then the audit saw the agent's requests
      And the audit cannot name SX-AGENT-PREFER-PULL from the requests
      And the audit names no rule
