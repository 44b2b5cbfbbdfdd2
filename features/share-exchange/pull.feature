@share-exchange
Feature: PULL: a holder releases its share only to the collector the policy lets combine
  The runner plays the board (it registers, solves and lists agents on the
  platform the responder reads) and the peers; the responder plays the
  holder. Every decision must come from the live board.

  @SX-RELEASE
  Rule: the elected broker, or anyone listed once the grace lapsed, gets the share

    Scenario: the broker of a combinable board gets the share
      Given a combinable board whose holder the responder plays
      When the broker pulls share 2
      Then the answer releases the share with code "elected_broker"

    Scenario: a board with a holder to spare is combinable: its broker gets the share
      Given a board of one holder to spare, whose holder the responder plays
      When the broker pulls share 2
      Then the answer releases the share with code "elected_broker"

    @long
    Scenario: the broker's grace holds a non-broker at 29 s and releases to it past 30 s
      Given a combinable board whose holder the responder plays
      When 29 seconds pass
      And the non-broker pulls share 2
      Then the answer refuses with 403 "not_broker"
      When 2 seconds pass
      And the non-broker pulls share 2
      Then the answer releases the share with code "grace_lapsed"

  @SX-NOT-BROKER
  Rule: a listed non-broker within the grace is refused

    Scenario: a non-broker is told who the broker is
      Given a combinable board whose holder the responder plays
      When the non-broker pulls share 2
      Then the answer refuses with 403 "not_broker"
      And the refusal names the broker and the grace remaining

  @SX-UNLISTED
  Rule: an unlisted requester is refused

    Scenario: a requester without a listing gets nothing
      Given a combinable board whose holder the responder plays
      When the unlisted agent pulls share 2
      Then the answer refuses with 403 "requester_unlisted"

    Scenario: a requester that left the board gets nothing
      Given a combinable board whose holder the responder plays
      When the bystander leaves the board
      And the bystander pulls share 2
      Then the answer refuses with 403 "requester_unlisted"

    Scenario: a requester that pulled while listed, then left, gets nothing: the board is read live
      Given a combinable board whose holder the responder plays
      When the bystander pulls share 2
      And the bystander leaves the board
      And the bystander pulls share 2
      Then the answer refuses with 403 "requester_unlisted"

    Scenario: a requester naming the broker's agent_id in upper case has no listing
      Given a combinable board whose holder the responder plays
      When the broker pulls share 2 naming itself in upper case
      Then the answer refuses with 403 "requester_unlisted" or 400 "bad_request"

    Scenario: a requester naming the broker's agent_id padded with spaces has no listing
      Given a combinable board whose holder the responder plays
      When the broker pulls share 2 naming itself padded with spaces
      Then the answer refuses with 403 "requester_unlisted" or 400 "bad_request"

  @SX-SELF
  Rule: the holder cannot request from itself

    Scenario: requester == agent_id is refused
      Given a combinable board whose holder the responder plays
      When the holder pulls share 2
      Then the answer refuses with 400 "requester_is_holder"

  @SX-NOT-HELD
  Rule: a share the holder does not hold is not released

    Scenario: the broker asks for a share the holder never solved
      Given a combinable board whose holder the responder plays
      When the broker pulls share 3
      Then the answer refuses with 404 "not_held"

    Scenario Outline: a share at the edge of 1..n that the holder never solved: share <share>
      Given a combinable board whose holder the responder plays
      When the broker pulls share <share>
      Then the answer refuses with 404 "not_held"

      Examples:
        | share |
        | 1     |
        | 5     |

    Scenario: a share handed to the holder that the board does not show it holding is not held
      Given a combinable board whose holder the responder plays
      And the holder is handed share 3 off the board
      When the broker pulls share 3
      Then the answer refuses with 404 "not_held"

    Scenario: a share_index of 0, below 1..n, releases nothing
      Given a combinable board whose holder the responder plays
      When the broker pulls share_index 0
      Then the answer refuses with 404 "not_held" or 400 "bad_request"

    Scenario: a share_index of 7, past 1..n, releases nothing
      Given a combinable board whose holder the responder plays
      When the broker pulls share_index 7
      Then the answer refuses with 404 "not_held" or 400 "bad_request"

  @SX-STALE
  Rule: only the live challenge counts

    Scenario: a request for another challenge is stale
      Given a combinable board whose holder the responder plays
      When the broker pulls share 2 of another challenge
      Then the answer refuses with 409 "stale_round"

    Scenario: a request for the round that just closed is stale
      Given a combinable board whose holder the responder plays
      When the broker pulls share 2 of the round that just closed
      Then the answer refuses with 409 "stale_round"

    Scenario: a request naming the live challenge_id in upper case names another challenge
      Given a combinable board whose holder the responder plays
      When the broker pulls share 2 of the live challenge in upper case
      Then the answer refuses with 409 "stale_round" or 400 "bad_request"

    Scenario: a request naming the live challenge_id padded with spaces names another challenge
      Given a combinable board whose holder the responder plays
      When the broker pulls share 2 of the live challenge padded with spaces
      Then the answer refuses with 409 "stale_round" or 400 "bad_request"

  @SX-NOT-COMBINABLE
  Rule: nobody needs a share before the board is combinable

    Scenario: a board short of a holder releases nothing
      Given a board that is not combinable, whose holder the responder plays
      When the broker pulls share 2
      Then the answer refuses with 409 "board_not_combinable"

    Scenario Outline: a board of <shape> has no coalition of k: it is not combinable
      Given a board of <shape>, whose holder the responder plays
      When the broker pulls share 2
      Then the answer refuses with 409 "board_not_combinable"

      Examples:
        | shape                       |
        | three shares on two members |
        | three holders of two shares |

  @SX-BAD-REQUEST
  Rule: malformed requests and other protocols are refused

    Scenario Outline: a request for another protocol: <protocol>
      Given a combinable board whose holder the responder plays
      When the broker pulls share 2 speaking "<protocol>"
      Then the answer refuses with 400 "bad_request"

      Examples:
        | protocol              |
        | abp-share-exchange/0  |
        | ABP-Share-Exchange/1  |
        | abp-share-exchange/12 |

    Scenario: a request whose share_index is a string
      Given a combinable board whose holder the responder plays
      When the broker pulls share 2 with share_index as a string
      Then the answer refuses with 400 "bad_request"

    Scenario: a request whose share_index is 2.5, not an int
      Given a combinable board whose holder the responder plays
      When the broker pulls share_index 2.5
      Then the answer refuses with 404 "not_held" or 400 "bad_request"

    Scenario: a request without its protocol
      Given a combinable board whose holder the responder plays
      When the broker pulls share 2 without a protocol
      Then the answer refuses with 400 "bad_request"

    Scenario Outline: a request without its <field> releases nothing
      Given a combinable board whose holder the responder plays
      When the broker pulls share 2 without its <field>
      Then the answer refuses the request without its field

      Examples:
        | field        |
        | challenge_id |
        | requester    |
        | agent_id     |
        | share_index  |

  @SX-REFUSED-BODY
  Rule: refusals carry ok false, the protocol, a code and a reason

    Scenario: a refusal's body
      Given a combinable board whose holder the responder plays
      When the unlisted agent pulls share 2
      Then the refusal body carries ok false, the protocol, a code and a reason

    Scenario Outline: every refusal's body, whatever its code: <refusal>
      Given a combinable board whose holder the responder plays
      When <refusal>
      Then the refusal body carries ok false, the protocol, a code and a reason

      Examples:
        | refusal                                                 |
        | the holder pulls share 2                                |
        | the broker pulls share 3                                |
        | the broker pulls share 2 of another challenge           |
        | the broker pulls share 2 speaking "abp-share-exchange/0" |
        | the non-broker pulls share 2                            |

    Scenario: a refusal's body on a board short of a holder
      Given a board that is not combinable, whose holder the responder plays
      When the broker pulls share 2
      Then the refusal body carries ok false, the protocol, a code and a reason

  @SX-CONTROL
  Rule: the reference responder's discovery and control surface

    Scenario: the responder names its protocol and its platform
      When the runner reads the responder's discovery document
      Then it names abp-share-exchange/1 and a platform

  @SX-OPENAPI
  Rule: every answer matches the document

    Scenario: a release matches the document
      Given a combinable board whose holder the responder plays
      When the broker pulls share 2
      Then every response so far matched the OpenAPI document

  @SX-CODE-ORDER
  Rule: when several conditions fail, the kit's order picks the code

    Scenario: an unlisted requester on a board short of a holder is told it is unlisted
      Given a board that is not combinable, whose holder the responder plays
      When the unlisted agent pulls share 2
      Then the answer refuses with 403 "requester_unlisted"
