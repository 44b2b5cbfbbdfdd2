@pyyol @pyyol-push
Feature: The push protocol: the agent's own request verification
  Every request but /health is verified before any handler runs: constant-
  time signature compare, a ±300 s timestamp window, no replayed nonce.

  Background:
    Given the kit plays the platform against the agent endpoint

  @PYYOL-SIGN-BAD @PYYOL-REF-PUSH-SECRET
  Rule: a bad signature is refused with bad_signature, on every signed route

    Every request but /health is verified, the one-way notifications too.

    Scenario Outline: a <route> signed with another secret
      When the platform sends a <route> signed with another secret
      Then the request is refused 401 with reason "bad_signature"

      Examples:
        | route      |
        | handshake  |
        | initialize |
        | event      |
        | game-end   |
        | turn       |

  @PYYOL-SIGN-BAD @PYYOL-SIGN-CONSTANT-TIME
  Rule: a signature that differs anywhere is refused, the last character too

    Scenario: one character off
      When the platform sends a request whose signature differs in its last character
      Then the request is refused 401 with reason "bad_signature"

    Scenario: a signature cut short
      When the platform sends a request whose signature is cut to its first half
      Then the request is refused 401 with reason "bad_signature"

  @PYYOL-SIGN-STALE
  Rule: a timestamp outside ±300 s is refused with stale_timestamp

    Scenario Outline: a timestamp <offset> seconds off
      When the platform sends a request with a timestamp <offset> seconds off
      Then the request is refused 401 with reason "stale_timestamp"

      Examples:
        | offset |
        | 900    |
        | -900   |

  @PYYOL-SIGN-SKEW-WINDOW
  Rule: a timestamp inside the window is accepted

    Scenario: a request signed four minutes ago
      When the platform sends a request with a timestamp 240 seconds off
      Then the request is accepted

  @PYYOL-SIGN-SKEW-WINDOW @PYYOL-SIGN-STALE
  Rule: the window is ±300 s exactly: the 300th second in, the 301st out, on both sides

    The agent's clock may differ from the runner's, so the runner finds
    both edges of what the agent accepts and judges their distance, which
    no clock offset changes.

    Scenario: the edges of the timestamp window
      When the platform probes both edges of the timestamp window
      Then the window is 600 seconds wide, whole-second rounding aside

  @PYYOL-SIGN-REPLAY
  Rule: a replayed nonce is refused with replayed_nonce

    Scenario: the same signed request twice
      When the platform sends a signed request, then the same request again
      Then the request is refused 401 with reason "replayed_nonce"

  @PYYOL-SIGN-MISSING
  Rule: a request without the signature headers is refused with missing_signature

    Scenario: an unsigned request
      When the platform sends a request without the signature headers
      Then the request is refused 401 with reason "missing_signature"

  @PYYOL-SIGN-MISSING
  Rule: each of the three signature headers is needed alone

    Scenario Outline: a signed request without its <header> header
      When the platform sends a signed request without its <header> header
      Then the request is refused 401 with reason "missing_signature"

      Examples:
        | header             |
        | X-Arena-Timestamp  |
        | X-Arena-Request-Id |
        | X-Arena-Signature  |

  @PYYOL-SIGN-REPLAY
  Rule: a nonce is refused however many requests came between

    A store capped at a few hundred nonces that evicts the oldest forgets
    one the window still holds; the SDK's ReplayGuard holds 50000.

    Scenario: a nonce replayed after sixteen other requests
      When the platform sends a signed request, then 16 others, then the first again
      Then the request is refused 401 with reason "replayed_nonce"

    Scenario: a nonce replayed after six hundred other requests
      When the platform sends a signed request, then 600 others, then the first again
      Then the request is refused 401 with reason "replayed_nonce"

  @PYYOL-SIGN-REPLAY
  Rule: a nonce is refused the second time on any route

    Scenario: a nonce reused on another route
      When the platform sends a signed request, then another route's request with the same nonce
      Then the request is refused 401 with reason "replayed_nonce"

  @PYYOL-SIGN-REPLAY
  Rule: a nonce is refused the second time under any timestamp

    The nonce store is keyed on the nonce alone: a store keyed on the
    nonce and its timestamp takes the same nonce signed a second later.

    Scenario: a nonce reused under a later timestamp
      When the platform sends a signed request, then the same nonce signed again 5 seconds later
      Then the request is refused 401 with reason "replayed_nonce"

    Scenario: a nonce reused four minutes after its first timestamp
      When the platform sends a signed request, then the same nonce signed again 240 seconds later
      Then the request is refused 401 with reason "replayed_nonce"

  @PYYOL-SIGN-REPLAY
  Rule: a nonce is refused the second time across a match's start and end

    The store outlives any match: one kept per match, emptied at its
    /initialize or its /game-end, takes a nonce the window still holds.

    Scenario Outline: a nonce replayed after a <route>
      When the platform sends a signed request, then a signed <route>, then the first again
      Then the request is refused 401 with reason "replayed_nonce"

      Examples:
        | route      |
        | initialize |
        | game-end   |

  @PYYOL-SIGN-REPLAY
  Rule: a nonce is spent by a verified request, whatever its handler answered

    The nonce is checked with the signature, before any handler runs: a
    request the handler refuses has used its nonce all the same.

    Scenario: a turn the agent cannot play, then the same request again
      When the platform sends a signed turn the agent cannot play, then the same request again
      Then the request is refused 401 with reason "replayed_nonce"

  @PYYOL-SIGN-BAD @PYYOL-SIGN-STRING
  Rule: the signature covers every byte of the body

    Scenario: a body that differs only by a trailing newline
      When the platform sends a signed request whose body gained a trailing newline after signing
      Then the request is refused 401 with reason "bad_signature"

  @PYYOL-SIGN-SKEW-WINDOW @PYYOL-SIGN-STRING
  Rule: a timestamp is read in any RFC3339 UTC form

    The docs' example has whole seconds and Z; RFC3339 UTC also has
    fractional seconds and the +00:00 offset, which the SDK reads. The
    signing string holds the header's text as sent, so a refusal with
    bad_signature is the signing string's, any other the window's.

    Scenario Outline: a timestamp written <form>
      When the platform sends a signed request whose timestamp is written <form>
      Then the request is accepted

      Examples:
        | form              |
        | with milliseconds |
        | with +00:00       |

  @PYYOL-SIGN-PATH
  Rule: the signed path carries no query string

    Scenario: a request whose URL has a query string
      When the platform sends a signed request to a URL with a query string
      Then the request is accepted

  @PYYOL-SIGN-STRING @PYYOL-SIGN-HEADERS
  Rule: the signature is the whole hex after v1=, whatever digits begin and end it

    A prefix cut with a character-set trim (lstrip("v1="), strip) also eats
    the hex's own leading or trailing 1s.

    Scenario: a signature whose hex begins and ends with 1
      When the platform sends a signed request whose signature's hex begins and ends with 1
      Then the request is accepted

  @PYYOL-SIGN-STALE
  Rule: a timestamp that is no time is outside the window

    The docs name no reason for it: stale_timestamp (the SDK's) or
    missing_signature (no timestamp read) are both refusals.

    Scenario: an unreadable timestamp
      When the platform sends a signed request whose timestamp is no time
      Then the request is refused 401 with reason "stale_timestamp" or "missing_signature"

  @PYYOL-SIGN-REPLAY
  Rule: a replayed nonce is refused on every signed route

    Scenario Outline: a replayed <route>
      When the platform sends a signed <route>, then the same request again
      Then the request is refused 401 with reason "replayed_nonce"

      Examples:
        | route      |
        | initialize |
        | event      |
        | game-end   |
