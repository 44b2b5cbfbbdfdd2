@pyyol @pyyol-gateway
Feature: The shadow referee of Monopoly and Mafia
  For every Monopoly and Mafia view and event the runner receives in a
  live match, the referee recomputes what the contract fixes from public
  information only and compares: money moves (the GO salary, standard
  rent, taxes, mortgage values, auction prices), every listed action
  valid and affordable, and nothing hidden in a view. The runner steers
  its matches into the states short matches never reach and notes which
  it reached.

  Background:
    Given a practice agent key

  @PYYOL-MONO-RENT @PYYOL-MONO-ECONOMY @PYYOL-MONO-ACT-MORTGAGE @PYYOL-MONO-VIEW-LEGAL
  @PYYOL-MONO-EV-AUCTION-WON @PYYOL-MONO-PERFECT-INFO @PYYOL-MONO-ACT-BUY @PYYOL-MONO-ACT-BUILD @PYYOL-MONO-ACT-SELL-HOUSE
  @PYYOL-MONO-ACT-PAY-JAIL @PYYOL-MONO-EV-CASH-CHANGED @PYYOL-MONO-REF-BOARD @PYYOL-MONO-REF-RENT
  @PYYOL-MONO-REF-PRACTICE-DEALS @PYYOL-MONO-ACT-ACCEPT-TRADE
  Rule: every Monopoly money move, legal list and view is what standard Monopoly makes of the public board

    Scenario: the referee of a dealing table
      When the agent registers for a Monopoly practice match of 2 seats, a turn cap of 150 and dealing bots
      And the agent plays up to 4 Monopoly matches as a dealer until it sells a house
      Then the shadow referee agreed with every Monopoly money move, legal list and view

    Scenario: the referee of a collector
      When the agent registers for a Monopoly practice match of 2 seats, a turn cap of 150 and dealing bots
      And the agent plays up to 8 Monopoly matches as a collector until a seat owes rent with both utilities and with three railroads held
      Then the shadow referee agreed with every Monopoly money move, legal list and view

    Scenario: the referee of a spendthrift
      When the agent registers for a Monopoly practice match of 2 seats and a turn cap of 100
      And the agent plays up to 6 Monopoly matches as a spendthrift until it goes bankrupt to a seat
      Then the shadow referee agreed with every Monopoly money move, legal list and view

    Scenario: the referee of a full table
      When the agent registers for a Monopoly practice match of 4 seats and a turn cap of 60
      And the agent plays the Monopoly match choosing from the legal list
      Then the shadow referee agreed with every Monopoly money move, legal list and view

  @PYYOL-MAFIA-VOTE @PYYOL-MAFIA-PROTECT @PYYOL-MAFIA-REDACTED @PYYOL-MAFIA-PRIVATE-OWN @PYYOL-MAFIA-NIGHT-PRIVATE
  Rule: a steered Mafia seat sees the plurality count and the Doctor's protection hold, and nothing of other seats' secrets

    Scenario: the referee of a Doctor's match
      When the agent plays a Mafia match as a Doctor steering the referee
      Then every seat the agent protected survived its night
      And every vote eliminated the plurality target
      And every Mafia view was redacted to the seat

    Scenario: the referee of a Villager's match
      When the agent plays a Mafia match as a Villager steering the referee
      Then every vote eliminated the plurality target
      And every Mafia view was redacted to the seat
