@toy
Feature: Counter
  A toy protocol that exercises the runner itself: one counter that only
  goes up by one.

  @TOY-INCR
  Rule: an increment adds exactly one

    Scenario: one increment from zero
      Given a fresh counter
      When the agent increments the counter
      Then the counter reads 1

    Scenario: two increments
      Given a fresh counter
      When the agent increments the counter twice
      Then the counter reads 2

    Scenario Outline: repeated increments
      Given a fresh counter
      When the agent increments the counter <n> times
      Then the counter reads <n>

      Examples:
        | n |
        | 1 |
        | 3 |

  @TOY-HINT
  Rule: responses carry the toy header

    Scenario: the header is present
      Given a fresh counter
      When the agent reads the counter
      Then the response carries the toy header

  @TOY-OPTIONAL
  Rule: an optional capability

    Scenario: an unsupported capability is skipped
      Given a fresh counter
      When the agent asks for the optional capability
      Then nothing is judged

  @TOY-WINDOW
  Rule: a window the runner waits out in real time

    @long
    Scenario: the counter still reads zero after the window
      Given a fresh counter
      When the agent reads the counter
      Then the counter reads 0
