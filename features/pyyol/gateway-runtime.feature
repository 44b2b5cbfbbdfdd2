@pyyol @pyyol-gateway
Feature: The agent gateway: handshake, lifecycle frames, heartbeats
  The kit is an agent: it dials the gateway's WebSocket, registers with an
  agent key and plays the practice match the gateway schedules.

  Background:
    Given a practice agent key

  @PYYOL-WS-UNAUTHORIZED
  Rule: a rejected token gets error unauthorized and the socket closes

    Scenario: a wrong token
      When the agent connects and registers with a wrong token
      Then the gateway refused with error unauthorized and closed the socket

  @PYYOL-WS-GAME-END @PYYOL-WS-HELLO @PYYOL-WS-REGISTERED @PYYOL-WS-AGENT-KEY @PYYOL-WS-ENVELOPE @PYYOL-WS-CONTEXT @PYYOL-REF-MINT @PYYOL-REF-SANDBOX-MATCH @PYYOL-REF-FRAMES
  Rule: hello, register, registered, then a match to game_end with the full record

    Scenario: a whole practice match
      When the agent connects and registers
      And the agent plays the match answering every turn
      Then the match ended with game_end and the full history

  @PYYOL-WS-INITIALIZE @PYYOL-WS-TURN
  Rule: initialize and turn carry ids

    Scenario: ids on the synchronous frames
      When the agent connects and registers
      And the agent plays the match answering every turn
      Then initialize and every turn carried an id

  @PYYOL-WS-EVENT-SEQ
  Rule: events come in seq order

    Scenario: the events of a match
      When the agent connects and registers
      And the agent plays the match answering every turn
      Then events arrived in strictly increasing seq order

  @PYYOL-WS-ONE-WAY
  Rule: event and game_end need no response

    Scenario: an agent that never answers an event
      When the agent connects and registers
      And the agent plays the match answering every turn
      Then the match ended with game_end and the full history

  @PYYOL-WS-PING
  Rule: the gateway answers a ping with a pong

    Scenario: the agent's heartbeat
      When the agent connects and registers
      And the agent plays the match answering every turn after a ping
      Then the gateway answered the ping with a pong

  @PYYOL-REF-USAGE
  Rule: usage records are kept as meter_source sdk and never change a move

    Scenario: moves with usage records
      When the agent connects and registers
      And the agent plays the match answering every turn with usage records
      Then the game_end lists the usage with meter_source sdk
      And every answered turn was played as answered
      And every round resolved by the rules

  @PYYOL-REF-SUPERSEDED
  Rule: a second registration of one agent supersedes its older socket

    Scenario: the agent registers on a second socket
      When the agent connects and registers
      And the agent registers again on a second socket
      Then the first socket was closed as superseded
