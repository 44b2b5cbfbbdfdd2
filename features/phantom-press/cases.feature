@phantom-press
Feature: Cases, AP and the actions of a turn

  @PP-CASE-TABLE
  Rule: each case has the counts of the per_case table

    Scenario: Every case matches its row of the table
      Given a run played through to the end
      When the agent fetches the public log of the run
      Then each case showed the AP, documents, witnesses and questions of its row

  @PP-CASE-ORDER
  Rule: cases come in order

    Scenario: Publishing a case opens the next one
      Given a fresh run
      And the agent has answered every question with a hedge
      When the agent publishes the paper
      Then case 2 is open with fresh AP

    Scenario: The four cases come as 1, 2, 3, 4
      Given a run played through to the end
      When the agent fetches the public log of the run
      Then the cases came in the order 1, 2, 3, 4

  @PP-AP-COST
  Rule: read costs 2 AP and interview 3

    Scenario: Reading costs 2 AP
      Given an active run
      When the agent reads a document
      Then the action succeeds and spends one turn
      And the AP fell by 2

    Scenario: Interviewing costs 3 AP
      Given an active run
      When the agent interviews a witness
      Then the action succeeds and spends one turn
      And the AP fell by 3

    Scenario Outline: <action> with exactly its cost in AP left
      Given a fresh run
      And the agent has spent its AP down to <ap>, a document and a topic still open
      When the agent <action>
      Then the action succeeds and spends one turn

      Examples:
        | action                | ap |
        | reads a document      | 2  |
        | interviews a witness  | 3  |

  @PP-READ-TEXT
  Rule: a read shows the document's text, an interview a testimony

    Scenario: Reading shows text not shown before
      Given an active run
      When the agent reads a document
      Then the action succeeds and spends one turn

    Scenario: Interviewing shows text not shown before
      Given an active run
      When the agent interviews a witness
      Then the action succeeds and spends one turn

  @PP-AP-NO-CARRY
  Rule: AP does not carry over

    Scenario: Unspent AP is lost at publish
      Given a fresh run
      And the agent has answered every question with a hedge
      When the agent publishes the paper
      Then case 2 is open with fresh AP

  @PP-AP-EXHAUSTED
  Rule: answer and publish work without AP

    Scenario: Answering and publishing with no AP left
      Given a fresh run
      And the agent has spent all its AP
      And the agent has answered every question with a hedge
      When the agent publishes the paper
      Then case 2 is open with fresh AP

  @PP-AP-INSUFFICIENT
  Rule: reading or interviewing without enough AP is refused

    Scenario: Reading with too little AP
      Given a fresh run
      And the agent has spent its AP with a document still unread
      When the agent reads a document
      Then the action is refused without spending a turn
      And nothing about the run changed

    Scenario Outline: <action> with one AP short of its cost
      Given a fresh run
      And the agent has spent its AP down to <ap>, a document and a topic still open
      When the agent <action>
      Then the action is refused without spending a turn
      And nothing about the run changed

      Examples:
        | action                | ap |
        | reads a document      | 1  |
        | interviews a witness  | 2  |

    Scenario Outline: <action> with exactly its cost left is accepted
      Given a fresh run
      And the agent has spent its AP down to <ap>, a document and a topic still open
      When the agent <action>
      Then the action succeeds and spends one turn
      And the AP fell by <ap>

      Examples:
        | action                | ap |
        | reads a document      | 2  |
        | interviews a witness  | 3  |

  @PP-READ-ONCE
  Rule: a document is read once and a topic asked once

    Scenario: Reading a document twice
      Given an active run
      And the agent has read a document
      When the agent reads the same document again
      Then the action is refused without spending a turn

  @PP-ACTION-TURN
  Rule: look, read, interview, answer and publish each spend one turn

    Scenario: Looking spends one turn
      Given an active run
      When the agent looks at the case
      Then the action succeeds and spends one turn

  @PP-ACTION-OK-FALSE
  Rule: an invalid action is ok:false and spends no turn

    Scenario Outline: Invalid moves change nothing
      Given an active run
      When the agent performs "<action>" with "<arg>"
      Then the action is refused without spending a turn
      And nothing about the run changed

      Examples:
        | action    | arg        |
        | read      | d99        |
        | interview | w9 t1      |
        | publish   |            |

  @PP-STATUS
  Rule: status spends no turn and is not logged

    Scenario: Checking status
      Given a fresh run
      And the agent has looked at the case
      When the agent checks its status
      Then the action succeeds without spending a turn
      And the public log lists 1 action, the look

  @PP-AVAILABLE-ACTIONS
  Rule: available_actions never lists an action that would be refused

    Scenario: publish is offered only once every question is answered
      Given a fresh run
      When the agent answers every question with a hedge
      Then the available actions match the run's situation

    Scenario: read is not offered without AP
      Given a fresh run
      When the agent spends its AP with a document still unread
      Then the available actions match the run's situation

    Scenario: An ended run offers nothing its end refuses
      Given a fresh run
      When the agent misprints until it is fired
      Then the available actions match the run's situation

  @PP-ACTION-ARG-REQUIRED
  Rule: read, interview, answer and comment need their arg

    Scenario Outline: An action without its arg
      Given an active run
      When the agent performs "<action>" with ""
      Then the action is refused without spending a turn
      And nothing about the run changed
      Examples:
        | action    |
        | read      |
        | interview |
        | answer    |
        | comment   |

  @PP-INTERVIEW-GRAMMAR
  Rule: interview takes <witness ID> <topic ID>

    Scenario: A witness and a topic, space-separated, are interviewed
      Given a fresh run
      When the agent interviews a witness
      Then the action succeeds and spends one turn

    Scenario Outline: An interview argument that is not a witness and a topic
      Given an active run
      When the agent performs "interview" with "<arg>"
      Then the action is refused without spending a turn
      Examples:
        | arg        |
        | w1         |

  @PP-ACTION-RESPONSE
  Rule: an action answers ok, turn, narrative, state, events and available_actions

    Scenario: The fields of an action's answer
      Given an active run
      When the agent looks at the case
      Then the answer carries ok, turn, narrative, state, events and available_actions

  @PP-STATE-CLIENT-FIELDS
  Rule: the state carries case_no, turn, trust, ap and status

    Scenario: The state the seed's client reads
      Given a fresh run
      When the agent looks at the case
      Then the state carries case_no, turn, trust, ap and the status "active"

  @PP-STATE-STATUS-ENDED
  Rule: state.status leaves "active" when the run ends

    Scenario: A fired trainee's run is no longer active
      Given a fresh run
      When the agent misprints until it is fired
      Then the state's status is no longer "active"

    Scenario: A run that published case #4 is no longer active
      Given a run played through to the end
      When the agent fetches the public log of the run
      Then the state's status is no longer "active"

  @PP-AP-ZERO
  Rule: look, answer, publish, status and comment cost no AP

    Scenario Outline: Actions that cost no AP
      Given an active run
      When the agent performs "<action>" with "<arg>"
      Then the AP fell by 0
      Examples:
        | action  | arg               |
        | look    |                   |
        | status  |                   |
        | comment | メモ                |
        | answer  | q1 裏取り不能 留保      |

  @PP-STATE-VIEW
  Rule: the PublicStateView carries the run's resources

    Scenario: The state after an action
      Given an active run
      When the agent looks at the case
      Then the state shows the run's resources and the case's public face

  @PP-EVENTS
  Rule: events describe what an action did

    Scenario: Reading yields a document event
      Given an active run
      When the agent reads a document
      Then the events hold one document event for that document

  @PP-DOC-FORMAT
  Rule: a read document exposes kind, origin and claims

    Scenario: A document read in full
      Given an active run
      When the agent reads a document
      Then the document shows its kind, origin, text and the claims it takes a stance on

    Scenario: A testimony taken in full
      Given an active run
      When the agent interviews a witness
      Then the testimony shows its source, origin, text and the claims it takes a stance on

  @PP-AVAILABLE-ACTIONS-COMPLETE
  Rule: available_actions lists every valid action, status and comment included (the kit's choice)

    Scenario: Every valid action is listed
      Given a fresh run
      When the agent answers every question with a hedge
      Then the available actions list every action valid now
