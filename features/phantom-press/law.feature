@phantom-press
Feature: The Law of Backing
  The correct answer of a question is what the available documents and
  testimonies derive. The runner re-derives it from the material the target
  reveals at publish (and from what it read) and compares it with the
  revealed answer.

  Background:
    Given a run played through to the end

  @PP-LAW-TRUE-OFFICIAL
  Rule: one official record makes a claim TRUE

    Scenario: A claim backed by an official record alone
      When the agent fetches the public log of the run
      Then every claim an official record supports, with no official against it, was revealed as "真"

  @PP-LAW-TRUE-SECONDARY
  Rule: two independent secondaries with no official against make a claim TRUE

    Scenario: A claim backed by two independent secondary sources
      When the agent fetches the public log of the run
      Then every claim two independent secondaries support, with no official against it, was revealed as "真"

  @PP-LAW-FALSE
  Rule: a backed counter-fact makes a claim FALSE

    Scenario: A claim an official record contradicts
      When the agent fetches the public log of the run
      Then every claim an official record contradicts, with no official for it, was revealed as "偽"

    Scenario: A claim two independent secondaries contradict
      When the agent fetches the public log of the run
      Then every claim two independent secondaries contradict, with no official either way, was revealed as "偽"

  @PP-LAW-UNVERIFIABLE
  Rule: a claim neither standard backs is UNVERIFIABLE

    Scenario: A claim with a single secondary source
      When the agent fetches the public log of the run
      Then every claim only one independent secondary takes a stance on was revealed as "裏取り不能"

  @PP-LAW-FABRICATED
  Rule: a fabricated claim is UNVERIFIABLE

    Scenario: A claim that only a fabricated document backs
      When the agent fetches the public log of the run
      Then every claim backed only by fabricated documents was revealed as "裏取り不能"

  @PP-LAW-TESTIMONY
  Rule: a testimony counts as one secondary source

    Scenario: A testimony and an independent document back a claim
      When the agent fetches the public log of the run
      Then every claim a testimony and one independent secondary support was revealed as "真"

    Scenario: A testimony alone does not back a claim
      When the agent fetches the public log of the run
      Then every claim only testimonies of one origin support was revealed as "裏取り不能"

  @PP-LAW-INDEPENDENCE
  Rule: secondaries sharing an origin are not independent

    Scenario: Two secondaries of one origin are one source
      When the agent fetches the public log of the run
      Then every claim secondaries of only one origin support was revealed as "裏取り不能"

  @PP-LAW-BOTH-BACKED
  Rule: a claim backed on both sides by independent secondaries is UNVERIFIABLE (the kit's reading)

    Scenario: Two independent secondaries for and two against, no official
      When the agent fetches the public log of the run
      Then every claim two independent secondaries support and two others contradict, with no official either way, was revealed as "裏取り不能"

  @PP-LAW-DOC-KINDS
  Rule: official is primary; article, memo, letter and diary are secondary

    Scenario: Every revealed answer follows the law over the revealed material
      When the agent fetches the public log of the run
      Then every revealed answer is the verdict the law derives from the revealed material
