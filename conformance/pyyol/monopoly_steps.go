package pyyol

import (
	"context"
	"strconv"

	"github.com/cucumber/godog"
)

// monopolySteps binds the Monopoly scenarios of gateway-monopoly.feature:
// the kit registers for a practice match, plays its seat from the legal
// list and referees every view and event it saw.
func monopolySteps(sc *godog.ScenarioContext, g *gwRun) {
	m := &monoRun{g: g}
	sc.Step(pattern(`^the agent registers for a Monopoly practice match of (\d+) seats and a turn cap of (\d+)$`), func(ctx context.Context, seats, limit string) error {
		n, _ := strconv.Atoi(seats)
		c, _ := strconv.Atoi(limit)
		m.practice = map[string]any{"players": n, "turn_cap": c, "seat": 0}
		return m.registerMonopoly(ctx)
	})
	sc.Step(pattern(`^the agent registers for a Monopoly practice match of (\d+) seats, a turn cap of (\d+) and (dealing bots|the free parking pool|starting cash of 100)$`), func(ctx context.Context, seats, limit, table string) error {
		n, _ := strconv.Atoi(seats)
		c, _ := strconv.Atoi(limit)
		m.practice = map[string]any{"players": n, "turn_cap": c, "seat": 0}
		// PYYOL-MONO-REF-PRACTICE-DEALS: the further practice options.
		switch table {
		case "dealing bots":
			m.practice["bots"] = "dealing"
		case "the free parking pool":
			m.practice["free_parking_pool"] = true
		default:
			m.practice["starting_cash"] = 100
		}
		return m.registerMonopoly(ctx)
	})
	sc.Step(pattern(`^the agent plays the Monopoly match as a (dealer|spendthrift|miser)$`), func(ctx context.Context, style string) error {
		m.style = style
		return m.play(ctx)
	})
	sc.Step(pattern(`^the agent plays up to (\d+) Monopoly matches as a (dealer|spendthrift) until it (uses a jail card|sells a house|goes bankrupt to a seat)$`), func(ctx context.Context, n, style, goal string) error {
		tries, _ := strconv.Atoi(n)
		reached := map[string]func() bool{
			"uses a jail card":        func() bool { return m.chose("use_jail_card") },
			"sells a house":           func() bool { return m.chose("sell_house") },
			"goes bankrupt to a seat": m.bankruptToSeat,
		}[goal]
		return m.playUntil(ctx, style, tries, reached)
	})
	sc.Step(pattern(`^every turn went roll, landing, manage and end_turn$`), m.checkPhaseMachine)
	sc.Step(pattern(`^every view showed the whole board$`), m.checkWholeBoard)
	sc.Step(pattern(`^every trade put to the agent was asked of it$`), m.checkTradeResponses)
	sc.Step(pattern(`^no seat owed more than its cash without resolving the debt$`), m.checkDebts)
	sc.Step(pattern(`^the bankrupt seat's estate went to its creditor$`), m.checkBankrupt)
	sc.Step(pattern(`^taxes and fines funded the Free Parking pool and its lander took it$`), m.checkPool)
	sc.Step(pattern(`^the agent plays the Monopoly match choosing from the legal list$`), m.play)
	sc.Step(pattern(`^the agent plays the Monopoly match answering its first turn with a made-up action$`), func(ctx context.Context) error {
		m.refuseFirst = true
		return m.play(ctx)
	})
	sc.Step(pattern(`^the refused answer took a safe action, changed nothing and the match went on$`), m.checkRefused)
	sc.Step(pattern(`^the table had 2 to 8 seats, as initialize announced$`), m.checkTable)
	sc.Step(pattern(`^the economy was the standard one$`), m.checkEconomy)
	sc.Step(pattern(`^every Monopoly view named the seat, a phase and actions legal in it$`), m.checkViews)
	sc.Step(pattern(`^buildings stood only on whole colour groups, built evenly$`), m.checkBuildings)
	sc.Step(pattern(`^every seat's cash matched the money events$`), m.checkMoney)
	sc.Step(pattern(`^no rent was paid for a mortgaged property$`), m.checkRent)
	sc.Step(pattern(`^every move, jailing, purchase, card and rent had its event$`), m.checkBoardEvents)
	sc.Step(pattern(`^the match ended within its turn cap with the documented winner$`), m.checkEnd)
	sc.Step(pattern(`^every action chosen from the legal list took effect$`), m.checkEffects)
	sc.Step(pattern(`^end_turn ended the turn unless doubles were rolled$`), m.checkEndTurns)
	sc.Step(pattern(`^every trade the agent offered was answered$`), m.checkTrades)
	sc.Step(pattern(`^every auction opened and closed with its events$`), m.checkAuctions)
	sc.Step(pattern(`^the events were the documented Monopoly events in seq order$`), m.checkEvents)
}
