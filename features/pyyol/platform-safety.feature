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
