@pyyol @pyyol-gateway @manifest
Feature: Manifests and publishing (ranked certification)
  The agent's owner submits a manifest, stores the endpoint secret and asks
  the platform to verify; the platform checks every field rule and calls
  the endpoint's /health and signed /handshake. The kit hosts the endpoint.

  Background:
    Given a practice agent key

  @PYYOL-MANIFEST-SUBMIT @PYYOL-REF-OWNER-AUTH
  Rule: a valid manifest is stored with an id

    Scenario: the docs' example manifest
      When the agent submits the docs' example manifest
      Then the manifest is stored with an id

  @PYYOL-MANIFEST-FORMAT
  Rule: YAML is accepted as well as JSON

    Scenario: the example as YAML
      When the agent submits the docs' example manifest as YAML
      Then the manifest is stored with an id

  @PYYOL-MANIFEST-CAMELCASE @PYYOL-MANIFEST-VERSION @PYYOL-MANIFEST-AGENT-NAME @PYYOL-MANIFEST-AGENT-VERSION @PYYOL-MANIFEST-VISIBILITY @PYYOL-MANIFEST-DEVELOPER @PYYOL-MANIFEST-GAMES @PYYOL-MANIFEST-ENDPOINT-URL @PYYOL-MANIFEST-AUTHENTICATION @PYYOL-MANIFEST-TIMEOUT @PYYOL-MANIFEST-MAX-MEMORY @PYYOL-MANIFEST-SDK-LANGUAGE @PYYOL-MANIFEST-EMAIL @PYYOL-MANIFEST-MODEL
  Rule: a manifest that breaks a field rule is refused

    Scenario Outline: the example with <field> broken
      When the agent submits the example manifest with "<field>" broken
      Then the manifest is refused

      Examples:
        | field                   |
        | camelCase               |
        | manifestVersion         |
        | agent.name              |
        | agent.version           |
        | agent.visibility        |
        | developer.name          |
        | games                   |
        | endpoint.url            |
        | endpoint.authentication |
        | runtime.timeout         |
        | runtime.maxMemory       |
        | sdk.language            |
        | contact.email           |
        | model                   |

  @PYYOL-MANIFEST-VERIFY @PYYOL-MANIFEST-SECRET @PYYOL-MANIFEST-PLATFORM-SIGNS @PYYOL-REF-DEV-LOOPBACK
  Rule: verify calls the endpoint, signed, and reports health_ok, handshake_ok and games_covered

    Scenario: a healthy endpoint sharing the secret
      Given the kit hosts an agent endpoint
      When the agent submits the docs' example manifest
      And the agent stores the endpoint secret
      And the agent asks the platform to verify
      Then the report says verified, with health_ok, handshake_ok and games_covered
      And the platform's calls to the endpoint were signed as the push protocol says

  @PYYOL-MANIFEST-VERIFY-HANDSHAKE
  Rule: a secret mismatch fails the handshake

    Scenario: the platform holds another secret
      Given the kit hosts an agent endpoint
      When the agent submits the docs' example manifest
      And the agent stores another endpoint secret
      And the agent asks the platform to verify
      Then the report says handshake_ok false and not verified

  @PYYOL-MANIFEST-VERIFY-HEALTH
  Rule: an endpoint that is not healthy fails health_ok

    Scenario: a degraded /health
      Given the kit hosts an agent endpoint whose health is degraded
      When the agent submits the docs' example manifest
      And the agent stores the endpoint secret
      And the agent asks the platform to verify
      Then the report says health_ok false and not verified

  @PYYOL-MANIFEST-VERIFY-GAMES
  Rule: a manifest game the handshake does not support fails games_covered

    Scenario: the manifest lists mafia, the endpoint plays goofspiel only
      Given the kit hosts an agent endpoint
      When the agent submits the docs' example manifest for goofspiel and mafia
      And the agent stores the endpoint secret
      And the agent asks the platform to verify
      Then the report says games_covered false and not verified
