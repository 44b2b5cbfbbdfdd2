@phantom-press
Feature: Answers and their sources

  @PP-ANSWER-GRAMMAR
  Rule: answers follow <qid> <verdict> <confidence> [sources...]

    Scenario Outline: Well-formed answers are recorded
      Given an active run
      And the agent has read two documents
      When the agent answers "<answer>"
      Then the answer is recorded as "<verdict>" "<confidence>"

      Examples:
        | answer                            | verdict    | confidence |
        | {q} 裏取り不能 留保                  | 裏取り不能    | 留保        |
        | {q} 真 留保 {read1}                  | 真          | 留保        |
        | {q} 偽 留保                         | 偽          | 留保        |
        | {q} 裏取り不能 断言 {read1}            | 裏取り不能    | 断言        |

    Scenario Outline: Malformed answers are refused
      Given an active run
      When the agent answers "<answer>"
      Then the action is refused without spending a turn

      Examples:
        | answer              |
        | {q}                 |
        | {q} 真              |
        | {q} たぶん 留保        |
        | {q} 真 きっと         |
        | q99 真 留保           |

  @PP-ANSWER-ALIASES
  Rule: English aliases are accepted

    Scenario Outline: English verdicts and confidences
      Given an active run
      When the agent answers "<answer>"
      Then the answer is recorded as "<verdict>" "<confidence>"

      Examples:
        | answer                  | verdict | confidence |
        | {q} true hedge          | 真      | 留保        |
        | {q} false hedge         | 偽      | 留保        |
        | {q} unverifiable assert | 裏取り不能 | 断言        |
        | {q} unverifiable hedge  | 裏取り不能 | 留保        |

  @PP-ANSWER-SEPARATORS
  Rule: sources may be separated by commas or spaces

    Scenario Outline: Two sources, either separator
      Given an active run
      And the agent has read two documents
      When the agent answers "<answer>"
      Then the answer is recorded with both documents as sources

      Examples:
        | answer                            |
        | {q} 裏取り不能 留保 {read1},{read2}    |
        | {q} 裏取り不能 留保 {read1} {read2}    |
        | {q} 裏取り不能 留保 {read1}, {read2}   |

  @PP-ANSWER-ASSERT-SOURCES
  Rule: assertions need read or interviewed sources

    Scenario: An assertion backed by a document the agent read
      Given an active run
      And the agent has read a document that takes a stance on a question
      When the agent asserts that question citing the document
      Then the action succeeds and spends one turn
      And the assertion is recorded

    Scenario: An assertion backed by a testimony the agent took
      Given an active run
      And the agent has interviewed a witness that takes a stance on a question
      When the agent asserts that question citing the testimony
      Then the assertion is recorded

  @PP-ANSWER-MALFORMED
  Rule: unknown, unacquired or missing sources are ok:false

    Scenario Outline: Assertions with bad sources
      Given an active run
      And the agent has read two documents
      When the agent answers "<answer>"
      Then the action is refused without spending a turn
      And nothing about the run changed

      Examples:
        | answer              |
        | {q} 真 断言           |
        | {q} 偽 断言           |
        | {q} 真 断言 d99       |
        | {q} 真 断言 {unread}  |
        | {q} 真 断言 {unheard} |
        | q99 真 留保           |

  @PP-ANSWER-REJECT
  Rule: a non-backing source is rejected at the cost of a turn

    Scenario: Citing a document that does not back the assertion
      Given an active run
      And the agent has read a document
      When the agent asserts a question the document says nothing about, citing it
      Then the answer is rejected at the cost of a turn

    Scenario: Citing a document that says the opposite
      Given an active run
      And the agent has read a document that takes a stance on a question
      When the agent asserts the opposite of the document on that question
      Then the answer is rejected at the cost of a turn

    Scenario: A rejection leaves the question's earlier answer standing
      Given a fresh run
      And the agent has read a document
      And the agent has hedged a question the document says nothing about
      When the agent asserts a question the document says nothing about, citing it
      Then the answer is rejected at the cost of a turn
      And the agent answers every question with a hedge
      And the agent publishes the paper
      And the action succeeds and spends one turn

  @PP-ANSWER-BACKING
  Rule: every cited source must back the assertion (the kit's reading)

    Scenario: One backing and one silent source
      Given an active run
      And the agent has read a document that takes a stance on a question
      And the agent has read another document silent on that question
      When the agent asserts that question citing both documents
      Then the answer is rejected at the cost of a turn

    Scenario: A hedge citing a document not yet read
      Given an active run
      And the agent has read two documents
      When the agent answers "{q} 真 留保 {unread}"
      Then the action is refused without spending a turn
      And nothing about the run changed

  @PP-ANSWER-HEDGE-ONLY
  Rule: after 3 rejections only hedges are accepted

    Scenario: A malformed answer is no substantive rejection
      Given an active run
      And the agent has been rejected twice on a question and refused once for a malformed answer to it
      When the agent asserts that question is unverifiable, which is not yet hedge-only
      Then the action succeeds and spends one turn

    Scenario: A fourth assertion after three rejections
      Given an active run
      And the agent has been rejected 3 times on a question
      When the agent asserts that question is unverifiable
      Then the assertion is not recorded
      And the question accepts only hedges

    Scenario: A hedge after three rejections
      Given an active run
      And the agent has been rejected 3 times on a question
      When the agent hedges on that question
      Then the action succeeds and spends one turn
      And the question accepts only hedges

  @PP-ANSWER-UNVERIFIABLE-NO-SOURCE
  Rule: 裏取り不能 asserted needs no source

    Scenario: Asserting unverifiable without a source
      Given an active run
      When the agent answers "{q} 裏取り不能 断言"
      Then the answer is recorded as "裏取り不能" "断言"

  @PP-ANSWER-HEDGE-NO-SOURCE
  Rule: a hedge needs no source

    Scenario: Hedging true without a source
      Given an active run
      When the agent answers "{q} 真 留保"
      Then the answer is recorded as "真" "留保"

  @PP-ANSWER-OVERWRITE
  Rule: answers can be overwritten until publish

    Scenario: A second answer replaces the first
      Given an active run
      And the agent has answered "{q} 真 留保"
      When the agent answers "{q} 偽 留保"
      Then the answer is recorded as "偽" "留保"

  @PP-REFUSAL-CODES
  Rule: refusals carry a code and an error

    Scenario: An unknown question is refused with a code
      Given an active run
      When the agent answers "q99 真 留保"
      Then the refusal carries the code "unknown_question" and an error message
