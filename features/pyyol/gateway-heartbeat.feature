@pyyol @pyyol-gateway
Feature: A silent agent is marked Offline
  local-runtime.md: "The SDK sends a `ping` every few seconds; missing
  several marks you Offline." The docs fix neither the interval nor how
  many pings are "several", nor where Offline shows, so the kit's reading
  is a REFERENCE choice (PYYOL-REF-OFFLINE): the gateway closes a socket
  from which no frame came for three of its ping intervals. A target that
  keeps a silent socket open for two minutes is warned, never failed.

  @PYYOL-REF-OFFLINE @long
  Rule: a socket silent past the liveness window is closed

    Scenario: an agent that never pings nor answers
      Given a practice agent key
      When the agent connects and registers
      And the agent stays silent
      Then the gateway marked the agent Offline and closed its socket
