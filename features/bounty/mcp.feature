@bounty
Feature: The same game over MCP
  JSON-RPC 2.0 over streamable HTTP at the mcp endpoint: initialize,
  tools/list, tools/call; one engine and one board behind HTTP and MCP.

  @BOUNTY-MCP-FLOW
  Rule: initialize, tools/list and tools/call over POST

    Scenario: a session initializes, lists its tools and calls one
      When the runner initializes an MCP session with protocol version "2025-11-25"
      Then tools/list answers a list of tools
      And the MCP tool for rounds names the live challenge

    Scenario: initialize declares tools, and an unknown method is an error
      When the runner initializes an MCP session with protocol version "2025-11-25"
      Then initialize declared the tools capability
      And a method the server does not offer answers a JSON-RPC error

  @BOUNTY-MCP-TOOLS
  Rule: 13 tools cover the surface

    Scenario: tools/list has 13 tools with the board, next_move and rounds
      When the runner initializes an MCP session with protocol version "2025-11-25"
      Then tools/list lists 13 tools including the peers board, bounty_next_move and rounds

  @BOUNTY-MCP-TOOL-NAMES
  Rule: the kit's tool names

    Scenario: the tools are the kit's 13
      When the runner initializes an MCP session with protocol version "2025-11-25"
      Then tools/list names the kit's 13 tools

  @BOUNTY-MCP-NOTIFY
  Rule: notifications answer 202 with no body

    Scenario: notifications/initialized answers 202 with no body
      When the runner sends the MCP notification "notifications/initialized"
      Then the answer is 202 with no body

    Scenario: a notification other than initialized answers 202 with no body
      When the runner sends the MCP notification "notifications/roots/list_changed"
      Then the answer is 202 with no body

  @BOUNTY-MCP-GET
  Rule: GET is 405

    Scenario: GET on the mcp endpoint answers 405
      When the runner sends GET to the mcp endpoint
      Then the answer is 405

  @BOUNTY-MCP-VERSIONS
  Rule: each listed protocol version is accepted

    Scenario Outline: initialize with <version> answers <version>
      When the runner initializes an MCP session with protocol version "<version>"
      Then the session's protocol version is "<version>"

      Examples:
        | version    |
        | 2025-11-25 |
        | 2025-06-18 |
        | 2025-03-26 |

  @BOUNTY-MCP-SAME-STATE
  Rule: an MCP agent and HTTP agents share one board and one bounty

    Scenario: a mixed coalition wins one bounty
      Given a team of 3 agents in a fresh round
      And agent 1 plays over MCP
      When agent 1 solves share 2, agent 2 solves share 3, agent 3 solves share 5
      And the team lists
      Then the board shows agent 1 holding "2" and agent 2 holding "3"
      When the team combines "1:2, 2:3, 3:5"
      Then the combine wins
      And the payout splits 1000 across agents 1, 2 and 3 only
