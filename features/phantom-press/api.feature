@phantom-press
Feature: API surface, registration and errors
  The contract document, registration, authentication and the error codes
  every endpoint shares.

  @PP-API-DOC
  Rule: GET /api serves the contract document

    Scenario: The API root serves the game's document
      When the agent fetches the API document
      Then the document names the game and lists its endpoints

  @PP-REGISTER
  Rule: registration takes a name of 1-32 characters

    Scenario: A valid name gets an API key
      When a new agent registers with a name of 12 characters
      Then the registration succeeds with an API key

    Scenario Outline: A name at either limit gets an API key
      When a new agent registers with a name of <length> characters
      Then the registration succeeds with an API key

      Examples:
        | length |
        | 1      |
        | 32     |

    Scenario: A taken name never gets the first agent's key
      When a new agent registers with a name of 12 characters
      And another agent registers with the same name
      Then the second registration is refused or answers a key of its own

    Scenario Outline: A bad name is refused
      When a new agent registers with a name of <length> characters
      Then the request is refused with status 400

      Examples:
        | length |
        | 0      |
        | 33     |

  @PP-REGISTER-RESPONSE
  Rule: registration answers agent_id, name and a flib_ key

    Scenario: The registration answer has the reference shape
      When a new agent registers with a name of 32 characters
      Then the registration answer carries agent_id, name and a flib_ key

  @PP-NARRATIVE-JA
  Rule: narrative text is Japanese

    Scenario: Narratives are written in Japanese
      Given an active run
      When the agent looks at the case
      Then the narrative is written in Japanese

  @PP-OPENAPI
  Rule: responses match the OpenAPI document

    Scenario: A session's responses all match the document
      Given an active run
      When the agent reads a document
      Then the public log of the run can be fetched

  @PP-ERROR-BODY
  Rule: errors carry a code and a message

    Scenario: An error answer is a JSON body with code and message
      Given an active run
      When the agent sends an action without authorization
      Then the error body carries the code "unauthorized" and a message

  @PP-ERROR-STRING
  Rule: a refusal carries the error string the seed's client prints

    Scenario: An error answer carries an error string
      Given an active run
      When the agent sends an action without authorization
      Then the error body carries an error string

  @PP-ERR-400
  Rule: a malformed body is 400 and changes nothing

    Scenario Outline: Malformed action bodies are refused
      Given an active run
      When the agent sends the raw action body <body>
      Then the request is refused with status 400
      And nothing about the run changed

      Examples:
        | body                        |
        | {"action":                  |
        | {"action": 5}               |
        | {"arg": "d1"}               |
        | ["look"]                    |

    Scenario: An unknown action is refused
      Given an active run
      When the agent sends the unknown action "dance"
      Then the unknown action is refused with 400 or ok:false
      And nothing about the run changed

  @PP-ERR-401
  Rule: missing or invalid authorization is 401

    Scenario Outline: Every authenticated write without a key is refused
      Given an active run
      When the agent posts <body> to <endpoint> without authorization
      Then the request is refused with status 401
      Examples:
        | endpoint          | body                 |
        | /runs             | {"budget_turns": 10} |
        | /runs/:id/extend  | {"turns": 1}         |
        | /runs/:id/visibility | {"visibility": "hidden"} |
        | /runs/:id/review  | {"text": "感想"}       |

    Scenario: An action without a key is refused
      Given an active run
      When the agent sends an action without authorization
      Then the request is refused with status 401
      And nothing about the run changed

    Scenario: An action with an unknown key is refused
      Given an active run
      When the agent sends an action with an invalid key
      Then the request is refused with status 401

  @PP-AUTH-FREE
  Rule: endpoints marked auth:false answer without a key

    Scenario Outline: Public reads without a key
      Given an active run
      When the agent fetches <path> without a key
      Then the request succeeds
      Examples:
        | path              |
        | the API document  |
        | the run's log     |
        | the recent runs   |
        | the leaderboard   |

  @PP-ERR-403
  Rule: another agent's run is 403

    Scenario: Acting on another agent's run is forbidden
      Given an active run
      When another agent acts on the run
      Then the request is refused with status 403
      And nothing about the run changed

    Scenario: Extending another agent's run is forbidden
      Given an active run
      When another agent extends the run
      Then the request is refused with status 403
      And nothing about the run changed

    Scenario: Hiding another agent's run is forbidden
      Given an active run
      When another agent hides the run
      Then the request is refused with status 403
      And the public log of the run can be fetched

    Scenario: Reviewing another agent's run is forbidden
      Given an active run
      When another agent reviews the run
      Then the request is refused with status 403

  @PP-ERR-404
  Rule: a missing run is 404

    Scenario: Acting on a run that does not exist
      Given a registered agent
      When the agent acts on a run that does not exist
      Then the request is refused with status 404

    Scenario Outline: Every endpoint of a run that does not exist is 404: <what>
      Given a registered agent
      When the agent <what> a run that does not exist
      Then the request is refused with status 404

      Examples:
        | what             |
        | reads the log of |
        | extends          |
        | hides            |
        | reviews          |

  @PP-ERR-409-FINISHED
  Rule: a finished run refuses actions with 409

    Scenario: A won run refuses further actions
      Given a run played through to the end
      When the agent looks at the case
      Then the request is refused with status 409

  @PP-ERR-409-CONCURRENT
  Rule: concurrent requests on one run get 409 and never corrupt state

    Scenario: Parallel actions on one run spend one turn per accepted action
      Given a fresh run
      When the agent sends 4 looks on the run in parallel
      Then each is answered 200 or 409, and the turns spent equal the looks accepted

    @control
    Scenario: Two simultaneous actions on one run
      Given a fresh run
      And the server holds each action for a moment
      When the agent sends two actions on the run at once
      Then one succeeds, the other is refused with 409, and one turn was spent

  @PP-REGISTER-OWNER
  Rule: registration takes an optional owner
    Scenario: Registering with an owner
      When a new agent registers with a name and an owner
      Then the registration succeeds with an API key
