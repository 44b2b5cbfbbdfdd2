@share-exchange
Feature: OFFER: a collector accepts a share only from a listed holder of it
  The responder plays the collector; the runner plays the holders.

  @SX-OFFER-ACCEPT
  Rule: an offer from a listed holder on a combinable board is accepted, once

    Scenario: the first offer is accepted, the same again is a duplicate
      Given a combinable board whose collector the responder plays
      When the offerer offers share 3 to the collector
      Then the answer accepts the offer with code "accepted"
      When the offerer offers share 3 to the collector
      Then the answer accepts the offer with code "duplicate"
      When the offerer offers share 3 to the collector again, with another share_hex
      Then the answer does not accept the offer again

    Scenario: a board with a holder to spare is combinable: the offer is accepted
      Given a board of one holder to spare, whose collector the responder plays
      When the offerer offers share 3 to the collector
      Then the answer accepts the offer with code "accepted"

    Scenario: an offer of share n, the last index, is accepted
      Given a combinable board whose collector the responder plays
      When the broker offers share 5 to the collector
      Then the answer accepts the offer with code "accepted"

    Scenario: each holder's each share is an offer of its own: a second share and a second holder are accepted
      Given a board of two holders of share 3, the offerer on share 1 too, whose collector the responder plays
      When the offerer offers share 3 to the collector
      Then the answer accepts the offer with code "accepted"
      When the offerer offers share 1 to the collector
      Then the answer accepts the offer with code "accepted"
      When the second holder offers share 3 to the collector
      Then the answer accepts the offer with code "accepted"

    Scenario: the next round's offer of the same holder and share is an offer of its own
      Given a combinable board whose collector the responder plays
      When the offerer offers share 3 to the collector
      Then the answer accepts the offer with code "accepted"
      When the round closes and the team solves its shares again
      And the offerer offers share 3 to the collector
      Then the answer accepts the offer with code "accepted"

    Scenario: a refused offer leaves nothing behind: the share offered rightly is then accepted
      Given a combinable board whose collector the responder plays
      When the offerer offers share 3 of another challenge to the collector
      Then the answer refuses with 409 "stale_round"

    Scenario: an offer for the round that just closed is stale
      Given a combinable board whose collector the responder plays
      When the offerer offers share 3 of the round that just closed to the collector
      Then the answer refuses with 409 "stale_round"
      When the offerer offers share 3 to the collector
      Then the answer accepts the offer with code "accepted"

  @SX-OFFER-STALE
  Rule: only the live challenge counts

    Scenario: an offer for another challenge is stale
      Given a combinable board whose collector the responder plays
      When the offerer offers share 3 of another challenge to the collector
      Then the answer refuses with 409 "stale_round"

    Scenario: an offer naming the live challenge_id in upper case names another challenge
      Given a combinable board whose collector the responder plays
      When the offerer offers share 3 of the live challenge in upper case to the collector
      Then the answer refuses with 409 "stale_round" or 400 "bad_request"

    Scenario: an offer naming the live challenge_id padded with spaces names another challenge
      Given a combinable board whose collector the responder plays
      When the offerer offers share 3 of the live challenge padded with spaces to the collector
      Then the answer refuses with 409 "stale_round" or 400 "bad_request"

  @SX-OFFER-NOT-RECIPIENT
  Rule: an offer must be addressed to the agent the endpoint answers for

    Scenario: an offer to another agent
      Given a combinable board whose collector the responder plays
      When the offerer offers share 3 to another agent
      Then the answer refuses with 400 "not_recipient"

    Scenario: an offer to the collector's agent_id in upper case is to another agent
      Given a combinable board whose collector the responder plays
      When the offerer offers share 3 to the collector named in upper case
      Then the answer refuses with 400 "not_recipient" or 400 "bad_request"

    Scenario: an offer to the collector's agent_id padded with spaces is to another agent
      Given a combinable board whose collector the responder plays
      When the offerer offers share 3 to the collector named padded with spaces
      Then the answer refuses with 400 "not_recipient" or 400 "bad_request"

  @SX-OFFER-SELF
  Rule: a collector does not take offers from itself

    Scenario: agent_id == to
      Given a combinable board whose collector the responder plays
      When the collector offers share 2 to the collector
      Then the answer refuses with 400 "offerer_is_recipient"

  @SX-OFFER-UNLISTED
  Rule: the offerer must be listed

    Scenario: an unlisted offerer
      Given a combinable board whose collector the responder plays
      When the unlisted agent offers share 3 to the collector
      Then the answer refuses with 403 "offerer_unlisted"

    Scenario: an offerer naming its agent_id padded with spaces has no listing
      Given a combinable board whose collector the responder plays
      When the offerer, naming itself padded with spaces, offers share 3 to the collector
      Then the answer refuses with 403 "offerer_unlisted" or 400 "bad_request"

  @SX-OFFER-NOT-HOLDER
  Rule: the board must show the offerer holding the share

    Scenario: an offer of a share the offerer never solved
      Given a combinable board whose collector the responder plays
      When the offerer offers share 5 to the collector
      Then the answer refuses with 404 "offerer_not_holder"

    Scenario: an offer of share_index 8, past 1..n, with the offerer's share 3 is not accepted
      Given a combinable board whose collector the responder plays
      When the offerer offers share_index 8 to the collector
      Then the answer refuses with 404 "offerer_not_holder" or 400 "bad_request"

  @SX-OFFER-NOT-COMBINABLE
  Rule: nobody needs a share before the board is combinable

    Scenario: a board short of a holder
      Given a board that is not combinable, whose collector the responder plays
      When the offerer offers share 3 to the collector
      Then the answer refuses with 409 "board_not_combinable"

    Scenario Outline: a board of <shape> has no coalition of k: it is not combinable
      Given a board of <shape>, whose collector the responder plays
      When the offerer offers share 3 to the collector
      Then the answer refuses with 409 "board_not_combinable"

      Examples:
        | shape                       |
        | three shares on two members |
        | three holders of two shares |

  @SX-OFFER-BAD-REQUEST
  Rule: malformed offers are refused

    Scenario: an offer without its share
      Given a combinable board whose collector the responder plays
      When the offerer offers share 3 without share_hex to the collector
      Then the answer refuses with 400 "bad_request"

    Scenario: an offer whose share_index is 3.5, not an int
      Given a combinable board whose collector the responder plays
      When the offerer offers share_index 3.5 to the collector
      Then the answer refuses with 404 "offerer_not_holder" or 400 "bad_request"

    Scenario: an offer whose share_index is true, not an int, with the offerer's share 1
      Given a board of two holders of share 3, the offerer on share 1 too, whose collector the responder plays
      When the offerer offers share 1 with share_index true to the collector
      Then the answer refuses with 404 "offerer_not_holder" or 400 "bad_request"

    Scenario Outline: an offer of another protocol: <protocol>
      Given a combinable board whose collector the responder plays
      When the offerer offers share 3 to the collector speaking "<protocol>"
      Then the answer refuses with 400 "bad_request"

      Examples:
        | protocol              |
        | abp-share-exchange/0  |
        | ABP-Share-Exchange/1  |
        | abp-share-exchange/12 |

    Scenario: an offer without its protocol
      Given a combinable board whose collector the responder plays
      When the offerer offers share 3 to the collector without a protocol
      Then the answer refuses with 400 "bad_request"

    Scenario Outline: an offer without its <field> is not accepted
      Given a combinable board whose collector the responder plays
      When the offerer offers share 3 to the collector without its <field>
      Then the answer refuses the request without its field

      Examples:
        | field        |
        | challenge_id |
        | to           |
        | agent_id     |
        | share_index  |

  @SX-REFUSED-BODY
  Rule: an offer's refusal carries its kind beside ok false, the protocol, a code and a reason

    Scenario Outline: every offer refusal's body, whatever its code: <refusal>
      Given a combinable board whose collector the responder plays
      When <refusal>
      Then the refusal body carries ok false, the protocol, a code and a reason

      Examples:
        | refusal                                                          |
        | the offerer offers share 3 of another challenge to the collector |
        | the offerer offers share 3 to another agent                      |
        | the collector offers share 2 to the collector                    |
        | the unlisted agent offers share 3 to the collector               |
        | the offerer offers share 5 to the collector                      |

    Scenario: an offer refusal's body on a board short of a holder
      Given a board that is not combinable, whose collector the responder plays
      When the offerer offers share 3 to the collector
      Then the refusal body carries ok false, the protocol, a code and a reason
