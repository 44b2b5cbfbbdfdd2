@pyyol @pyyol-gateway
Feature: Monopoly as the gateway plays it
  The kit registers for a practice Monopoly table, plays its seat by
  choosing from legal_actions (buying, mortgaging what it owns, giving a
  dollar away on its first trade floors) while engine bots play the other
  seats, and referees every view and event it saw.

  Background:
    Given a practice agent key

  @PYYOL-MONO-SEATS @PYYOL-MONO-PHASE-MACHINE @PYYOL-MONO-VIEW-SEAT
  @PYYOL-MONO-VIEW-PHASE @PYYOL-MONO-VIEW-LEGAL @PYYOL-MONO-VIEW-STATE
  @PYYOL-MONO-MOVE-AMOUNT @PYYOL-MONO-PHASE-ROLL @PYYOL-MONO-PHASE-JAIL @PYYOL-MONO-PHASE-ACQUIRE
  @PYYOL-MONO-PHASE-AUCTION @PYYOL-MONO-PHASE-MANAGE @PYYOL-MONO-PHASE-TRADE @PYYOL-MONO-ACT-ROLL
  @PYYOL-MONO-ACT-BUY @PYYOL-MONO-ACT-DECLINE @PYYOL-MONO-ACT-BID @PYYOL-MONO-ACT-PASS
  @PYYOL-MONO-ACT-PAY-JAIL @PYYOL-MONO-ACT-USE-JAIL-CARD @PYYOL-MONO-ACT-ROLL-JAIL @PYYOL-MONO-ACT-END-TURN
  @PYYOL-MONO-ACT-SKIP-TRADE @PYYOL-MONO-CFG-PLAYERS @PYYOL-MONO-CFG-AUCTIONS @PYYOL-MONO-LEGAL-ACCEPTED
  @PYYOL-MONO-END-TURN-SAFE @PYYOL-MONO-PHASE-NOT-ACTION @PYYOL-MONO-REF-DOUBLES @PYYOL-MONO-REF-JAIL
  @PYYOL-MONO-REF-TRADE-FLOOR @PYYOL-MONO-REF-AUCTION @PYYOL-MONO-REF-MANAGE-LIMIT
  @PYYOL-MONO-REF-BOTS @PYYOL-MONO-REF-PRACTICE
  @PYYOL-MONO-EV-DICE-ROLLED @PYYOL-MONO-EV-MORTGAGED @PYYOL-MONO-EV-TRADE-PROPOSED @PYYOL-MONO-EV-AUCTION-PASSED @PYYOL-MONO-EV-BANKRUPT
  @PYYOL-MONO-EV-AUCTION-STARTED @PYYOL-MONO-EV-AUCTION-WON @PYYOL-MONO-EV-AUCTION-UNSOLD @PYYOL-MONO-EV-BID-PLACED
  @PYYOL-MONO-MOVE-PROPERTY @PYYOL-MONO-MOVE-TRADE @PYYOL-MONO-ACT-MORTGAGE
  @PYYOL-MONO-ACT-UNMORTGAGE @PYYOL-MONO-EV-UNMORTGAGED
  @PYYOL-MONO-EV-TRADE-EXECUTED @PYYOL-MONO-EV-TRADE-REJECTED @PYYOL-MONO-ACT-PROPOSE-TRADE
  Rule: every view names the seat, a documented phase and actions legal in it; every listed action is accepted

    Scenario: the views and actions of a match
      When the agent registers for a Monopoly practice match of 2 seats and a turn cap of 80
      And the agent plays the Monopoly match choosing from the legal list
      Then the table had 2 to 8 seats, as initialize announced
      And every turn went roll, landing, manage and end_turn
      And every Monopoly view named the seat, a phase and actions legal in it
      And every auction opened and closed with its events
      And every action chosen from the legal list took effect
      And end_turn ended the turn unless doubles were rolled
      And every trade the agent offered was answered

  @PYYOL-MONO-ECONOMY @PYYOL-MONO-ACT-ACCEPT-TRADE @PYYOL-MONO-EV-CASH-CHANGED
  @PYYOL-MONO-CFG-ECONOMY @PYYOL-MONO-VIEW-STATE
  @PYYOL-MONO-REF-TRADE-VALIDATION @PYYOL-MONO-REF-DEBT @PYYOL-MONO-REF-BANKRUPTCY @PYYOL-MONO-REF-LEDGER
  Rule: money moves only through the documented events; a trade makes and loses nothing

    Scenario: the money of a match
      When the agent registers for a Monopoly practice match of 4 seats and a turn cap of 40
      And the agent plays the Monopoly match choosing from the legal list
      Then the economy was the standard one
      And every seat's cash matched the money events

  @PYYOL-MONO-PERFECT-INFO @PYYOL-MONO-RENT @PYYOL-MONO-ACT-BUILD
  @PYYOL-MONO-REF-BOARD
  @PYYOL-MONO-REF-RENT @PYYOL-MONO-REF-EVEN-SELL @PYYOL-MONO-REF-SUPPLY @PYYOL-MONO-REF-MORTGAGE
  @PYYOL-MONO-EV-MOVED @PYYOL-MONO-EV-WENT-TO-JAIL @PYYOL-MONO-EV-LEFT-JAIL @PYYOL-MONO-EV-PROPERTY-PURCHASED @PYYOL-MONO-EV-CARD-DRAWN @PYYOL-MONO-EV-RENT-PAID
  Rule: standard rents and even building

    Scenario: rents and buildings of a match
      When the agent registers for a Monopoly practice match of 4 seats and a turn cap of 60
      And the agent plays the Monopoly match choosing from the legal list
      Then every view showed the whole board
      And every move, jailing, purchase, card and rent had its event
      And no rent was paid for a mortgaged property
      And buildings stood only on whole colour groups, built evenly

  @PYYOL-MONO-WIN-LAST-SOLVENT @PYYOL-MONO-WIN-TURN-CAP @PYYOL-MONO-PHASE-GAME-OVER
  @PYYOL-MONO-EV-MATCH-CREATED @PYYOL-MONO-EV-TURN-STARTED
  @PYYOL-MONO-EV-TURN-ENDED @PYYOL-MONO-EV-MATCH-FINISHED @PYYOL-MONO-EVENTS
  @PYYOL-MONO-REF-DECKS @PYYOL-MONO-REF-TURN-CAP
  Rule: the documented events, and a game that ends by bankruptcy or the turn cap

    Scenario: the end of a match
      When the agent registers for a Monopoly practice match of 2 seats and a turn cap of 30
      And the agent plays the Monopoly match choosing from the legal list
      Then the events were the documented Monopoly events in seq order
      And the match ended within its turn cap with the documented winner

  @PYYOL-MONO-FALLBACK @PYYOL-MONO-MOVE-ACTION @PYYOL-MONO-REF-FALLBACK
  Rule: a refused answer takes a safe legal action and changes nothing

    Scenario: a made-up action
      When the agent registers for a Monopoly practice match of 2 seats and a turn cap of 10
      And the agent plays the Monopoly match answering its first turn with a made-up action
      Then the refused answer took a safe action, changed nothing and the match went on

  @PYYOL-MONO-PHASE-TRADE-RESPONSE @PYYOL-MONO-ACT-REJECT-TRADE @PYYOL-MONO-ACT-COUNTER-TRADE
  @PYYOL-MONO-ACT-SELL-HOUSE @PYYOL-MONO-EV-HOUSE-BUILT @PYYOL-MONO-EV-HOUSE-SOLD
  @PYYOL-MONO-ACT-ROLL-JAIL @PYYOL-MONO-ACT-BUILD @PYYOL-MONO-REF-PRACTICE-DEALS
  Rule: a trade put to the agent is the agent's to accept, reject or counter; houses are built and sold as chosen

    Scenario: a table of dealing bots
      When the agent registers for a Monopoly practice match of 2 seats, a turn cap of 150 and dealing bots
      And the agent plays up to 4 Monopoly matches as a dealer until it sells a house
      Then every trade put to the agent was asked of it
      And every action chosen from the legal list took effect
      And buildings stood only on whole colour groups, built evenly

  @PYYOL-MONO-PHASE-RESOLVE-DEBT @PYYOL-MONO-ACT-BANKRUPT @PYYOL-MONO-EV-BANKRUPT @PYYOL-MONO-WIN-LAST-SOLVENT
  @PYYOL-MONO-ACT-ROLL-JAIL @PYYOL-MONO-ACT-USE-JAIL-CARD
  Rule: a seat that cannot pay resolves its debt or goes bankrupt to its creditor; the last solvent seat wins

    Scenario: an agent that gives its money away
      When the agent registers for a Monopoly practice match of 2 seats and a turn cap of 100
      And the agent plays up to 6 Monopoly matches as a spendthrift until it goes bankrupt to a seat
      Then no seat owed more than its cash without resolving the debt
      And every action chosen from the legal list took effect
      And the bankrupt seat's estate went to its creditor
      And every seat's cash matched the money events
      And the match ended within its turn cap with the documented winner

    Scenario: an agent that goes bankrupt holding properties at a table that plays on
      When the agent registers for a Monopoly practice match of 3 seats and a turn cap of 100
      And the agent plays up to 6 Monopoly matches as a spendthrift buyer until it goes bankrupt to a seat
      Then the bankrupt seat's estate went to its creditor

  @PYYOL-MONO-EV-RENT-PAID @PYYOL-MONO-PHASE-RESOLVE-DEBT @PYYOL-MONO-ACT-MORTGAGE @PYYOL-MONO-REF-DEBT
  Rule: a debt raised in resolve_debt and paid off by mortgaging is paid to its creditor

    Scenario: a pauper that mortgages to pay its rent
      When the agent registers for a Monopoly practice match of 2 seats, a turn cap of 40 and starting cash of 100
      And the agent plays up to 6 Monopoly matches as a pauper until it pays off a debt to a seat
      Then every move, jailing, purchase, card and rent had its event
      And every seat's cash matched the money events

  @PYYOL-MONO-EV-AUCTION-UNSOLD @PYYOL-MONO-REF-PRACTICE-DEALS
  Rule: an auction nobody bids in closes unsold

    Scenario: a poor table
      When the agent registers for a Monopoly practice match of 2 seats, a turn cap of 20 and starting cash of 100
      And the agent plays the Monopoly match as a miser
      Then every auction opened and closed with its events
      And every seat's cash matched the money events

  @PYYOL-MONO-CFG-FREE-PARKING
  Rule: with the free parking pool, taxes and fines fund a jackpot that Free Parking pays out

    Scenario: a table with the pool
      When the agent registers for a Monopoly practice match of 2 seats, a turn cap of 150 and the free parking pool
      And the agent plays the Monopoly match choosing from the legal list
      Then taxes and fines funded the Free Parking pool and its lander took it
      And every seat's cash matched the money events

  @PYYOL-MONO-ACT-USE-JAIL-CARD @PYYOL-MONO-ACT-ROLL-JAIL @PYYOL-MONO-EV-LEFT-JAIL
  Rule: a jail card frees its holder once and is spent

    Scenario: a jail card held in jail
      When the agent registers for a Monopoly practice match of 2 seats and a turn cap of 150
      And the agent plays up to 8 Monopoly matches as a dealer until it uses a jail card
      Then every action chosen from the legal list took effect
