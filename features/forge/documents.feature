@forge
Feature: Published documents and the chain summary

  @FORGE-DOC-SCHEMA @FORGE-DOC-QUICKSTART @FORGE-DOC-DSL @FORGE-DOC-OPENAPI @FORGE-REF-DSL @FORGE-REF-SCHEMA @FORGE-REF-OPENAPI @FORGE-REF-BASE-PATH
  Rule: the schema, the DSL semantics, the quickstart and the API description are public

    Scenario: every document is served without authentication
      When the public documents are read without a key
      Then each is served with status 200 and a body

  @FORGE-CHAIN-SUMMARY @FORGE-CHAIN-FIRST-POSITION @FORGE-CHAIN-SEED-POSITIONS
  Rule: the chain is one global list from position 1 whose summary shows no level content

    Scenario: the chain summary counts at least the seed positions and shows no content
      When the chain summary is read without a key
      Then it shows a length of at least 10 and no level content

  @FORGE-NO-DISABLE-API
  Rule: no HTTP API disables a level

    Scenario: the API offers no way to disable a level
      When a client tries to disable position 1 over HTTP
      Then the attempt is refused and the API description names no disable operation

  @FORGE-LEGACY-DIFFICULTY-SCHEMA
  Rule: the source schema keeps the legacy difficulty optional and schema-validated

    Scenario: the puzzle schema validates difficulty without requiring it
      When the puzzle schema is read without a key
      Then it validates difficulty wherever it describes it and never requires it
