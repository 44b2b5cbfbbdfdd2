@pyyol @pyyol-platform @push
Feature: The platform's pushes to a hosted agent endpoint
  The kit hosts an agent endpoint, publishes a manifest whose endpoint.url
  names it, stores the endpoint secret, lets the platform verify it and
  plays the Goofspiel match the platform pushes. Every request the platform
  made to the endpoint is judged, after normalizing what the docs leave
  open (a view at the top level of the /turn body or wrapped, an event type
  under type or kind).

  Background:
    Given the platform has verified the kit's endpoint and pushed it a match

  @PYYOL-PLAT-SIGNED
  Rule: every request but /health is signed with the endpoint secret

    Scenario: the signatures of the verify calls and the match
      Then every request but /health carries a signature that verifies

  @PYYOL-PLAT-SIGN-PATH
  Rule: the signed path carries no query string

    Scenario: no signature binds a query
      Then no signature binds a query string

  @PYYOL-PLAT-HEADERS
  Rule: three X-Arena headers accompany each signed request

    Scenario: the headers of every signed request
      Then every signed request carries the three X-Arena headers

  @PYYOL-PLAT-BEARER
  Rule: the Bearer header carries the endpoint secret (back-compat)

    Scenario: the Authorization header of every signed request
      Then every signed request carries the endpoint secret as a Bearer token

  @PYYOL-PLAT-TIMESTAMP
  Rule: the timestamp is RFC3339 UTC and current

    Scenario: the timestamps of every signed request
      Then every timestamp is RFC3339 UTC and within 300 seconds of its arrival

  @PYYOL-PLAT-NONCE
  Rule: every request carries a nonce of its own

    Scenario: the nonces of the verify calls and the match, retries included
      Then no nonce repeats

  @PYYOL-PUSH-PROTOCOL-FIELD
  Rule: every request carries "protocol": "1.0"

    Scenario: the bodies of the verify calls and the match
      Then every body the platform sent carries "protocol": "1.0"

  @PYYOL-PLAT-HEALTH
  Rule: the liveness probe is GET /health

    Scenario: the verify probe
      Then the liveness probe is a GET of /health

  @PYYOL-PLAT-SIBLINGS
  Rule: the turn goes to endpoint.url and the other routes to its siblings

    Scenario: the paths the platform called
      Then every route the platform called is endpoint.url or a sibling of it

  @PYYOL-PLAT-INITIALIZE
  Rule: the match starts with an /initialize

    Scenario: the match start
      Then the match began with an /initialize naming the seat and the player count

  @PYYOL-PLAT-TURN-BODY
  Rule: each /turn carries the game and the seat's view

    Scenario: the turn bodies
      Then every /turn carried the game and a view with legal actions

  @PYYOL-PLAT-EVENT-BODY
  Rule: each /event is {seq, type, payload}

    Scenario: the event bodies
      Then every /event was {seq, type, payload} with no seq used twice

  @PYYOL-PLAT-GAME-END-BODY
  Rule: the match ends with a /game-end carrying the result

    Scenario: the match end
      Then the match ended with a /game-end carrying the result

  @PYYOL-PLAT-ONE-WAY
  Rule: a slow /event does not stall the match

    Scenario: the kit holds an /event unanswered
      Then the next /turn came while the kit held an /event unanswered

  @PYYOL-PLAT-REF-PRACTICE
  Rule: the reference pushes a practice match after a successful verify

    Scenario: the match came after verify
      Then the match came without the kit asking the practice route

  @PYYOL-PLAT-REF-CLIENT
  Rule: the reference's handshake names the platform

    Scenario: the handshake body
      Then the handshake body names the platform
