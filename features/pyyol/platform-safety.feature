@pyyol @pyyol-platform @push
Feature: The platform refuses endpoints at forbidden addresses
  A manifest whose endpoint.url names a private, loopback, link-local or
  metadata address is refused at submit or at verify, and the platform
  never connects to it. The kit only ever names an address of its own
  machine, with a tripwire listening behind it that answers nothing and
  counts every connection: no third party is ever named. The metadata
  address 169.254.169.254 lies inside the link-local IPv4 class; the kit
  names it only if this machine holds it. A class this machine holds no
  address of is unchecked. A platform not on this machine is only asked
  to store the manifest, never to verify it: on its own network the kit's
  private address may be someone else's.

  @PYYOL-PLAT-SSRF
  Rule: private, loopback, link-local and metadata endpoints are refused and never called

    Scenario Outline: an endpoint at the kit's own <class> address
      Given a practice agent key for the platform checks
      And a tripwire on this machine's own <class> address
      When the agent submits a manifest whose endpoint.url is the tripwire
      Then the platform refuses it at submit or at verify
      And the tripwire counted no connection

      Examples:
        | class             |
        | private IPv4      |
        | unique-local IPv6 |
        | link-local IPv4   |
        | link-local IPv6   |
        | loopback          |
