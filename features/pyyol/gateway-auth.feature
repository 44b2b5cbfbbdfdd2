@pyyol @pyyol-gateway
Feature: The register token: the agent key or the owner's dashboard JWT
  local-runtime.md: the register token is the agent key, "a persistent
  credential resolved to your agent id (a short-lived dashboard JWT,
  auto-refreshed, also works)". How a runner obtains the JWT is the kit's
  (PYYOL-REF-DASHBOARD-JWT): a target that gives none skips.

  @PYYOL-WS-DASHBOARD-JWT @PYYOL-REF-DASHBOARD-JWT
  Rule: a dashboard JWT registers the socket as the agent its key does

    Scenario: register with the dashboard JWT
      Given a practice agent key
      When the agent connects and registers with its dashboard JWT
      Then the gateway registered the agent the key names
