@pyyol @pyyol-platform @push
Feature: The platform refuses endpoints at forbidden addresses
  A manifest whose endpoint.url names a private, link-local or metadata
  address is refused at submit or at verify. The kit only ever names such
  an address to the platform; it sends nothing there itself.

  @PYYOL-PLAT-SSRF
  Rule: private, link-local and metadata endpoints are refused

    Scenario Outline: an endpoint at <address>
      Given a practice agent key for the platform checks
      When the agent submits a manifest whose endpoint.url is "<url>"
      Then the platform refuses it at submit or at verify

      Examples:
        | address         | url                                    |
        | 10.0.0.1        | https://10.0.0.1/kit-agent/turn        |
        | 169.254.169.254 | http://169.254.169.254/kit-agent/turn  |
        | fd00::1         | https://[fd00::1]/kit-agent/turn       |

  @PYYOL-PLAT-LOOPBACK
  Rule: a production platform refuses loopback endpoints

    The docs let a dev platform opt in for localhost, so only a platform
    claimed to be a production one (--production-platform) is held to it,
    and only one on the runner's machine can reach the kit's loopback
    listener to show that it called it.

    Scenario: an endpoint on the kit's loopback listener
      Given a practice agent key for the platform checks
      When the agent submits a manifest naming a loopback listener of the kit
      Then a production platform refuses it at submit or at verify and never calls it
