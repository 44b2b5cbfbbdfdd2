package pyyol

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/monopoly"
)

// judgeView judges one view the agent was shown: every listed action is
// valid and affordable in it (PYYOL-MONO-VIEW-LEGAL: "The exact action
// kinds valid for you right now") and nothing hidden shows
// (PYYOL-MONO-PERFECT-INFO: only the unshuffled decks are hidden).
func (m *monoRun) judgeView(b *refBoard, i int, t *monoTurn) error {
	if err := judgeDecks(b.board, i, t.decodedBody(), m.drawsAround(t)); err != nil {
		return err
	}
	v := t.view
	if v.State == nil || m.seat < 0 || m.seat >= len(v.State.Players) || v.State.Players[m.seat].Cash == nil {
		return nil
	}
	for _, a := range v.LegalActions {
		if why := m.invalid(b.board, v, a); why != "" {
			return verdict.Failf("PYYOL-MONO-VIEW-LEGAL", "only actions valid and affordable now", a+" listed",
				"turn view %d (phase %s): %s", i, v.Phase, why)
		}
	}
	if a, why := m.missing(b.board, v); a != "" {
		return verdict.Failf("PYYOL-MONO-VIEW-LEGAL", "every action valid now listed", a+" missing", "turn view %d (phase %s): %s", i, v.Phase, why)
	}
	return nil
}

// missing names an action standard Monopoly makes valid in view v that
// its legal list leaves out, and why: buying a property the cash covers
// when the decision is to buy or decline, paying the fine the cash
// covers in jail.
func (m *monoRun) missing(board *monopoly.Board, v monoView) (string, string) {
	me := v.State.Players[m.seat]
	cash := *me.Cash
	switch {
	case v.Phase == "acquire" && board.Ownable(me.Position) && cash >= board.Squares[me.Position].Price && !slices.Contains(v.LegalActions, "buy"):
		return "buy", fmt.Sprintf("cash $%d covers the price $%d of %s", cash, board.Squares[me.Position].Price, board.Squares[me.Position].Name)
	case v.Phase == "jail" && cash >= board.JailFine && !slices.Contains(v.LegalActions, "pay_jail"):
		return "pay_jail", fmt.Sprintf("cash $%d covers the $%d fine", cash, board.JailFine)
	}
	return "", ""
}

// invalid says why action a cannot be valid for the agent in view v, or
// "". It judges only what standard Monopoly fixes and the view shows:
// cash against a price, a whole colour group for building, a mortgaged
// property to lift, a building to sell; every rule it cannot see (the
// house supply, the even-build order) is given the benefit of the doubt.
func (m *monoRun) invalid(board *monopoly.Board, v monoView, a string) string {
	me := v.State.Players[m.seat]
	cash := *me.Cash
	switch a {
	case "buy":
		sq := me.Position
		if !board.Ownable(sq) {
			return fmt.Sprintf("square %d cannot be bought", sq)
		}
		if price := board.Squares[sq].Price; cash < price {
			return fmt.Sprintf("cash $%d below the price $%d of %s", cash, price, board.Squares[sq].Name)
		}
	case "pay_jail":
		if cash < board.JailFine {
			return fmt.Sprintf("cash $%d below the $%d fine", cash, board.JailFine)
		}
	case "build":
		return m.noBuild(board, v, cash)
	case "unmortgage":
		if !m.canLift(board, v, cash) {
			return fmt.Sprintf("no mortgaged property whose value plus 10%% the cash $%d covers", cash)
		}
	case "mortgage":
		if !slices.ContainsFunc(v.State.Holdings, func(h monoHolding) bool { return h.Owner == m.seat && !h.Mortgaged && h.Houses == 0 }) {
			return "no unmortgaged property without buildings"
		}
	case "use_jail_card":
		if n := me.JailCards; n != nil && *n <= 0 {
			return "no get-out-of-jail-free card held"
		}
	case "sell_house":
		if !slices.ContainsFunc(ownedStreets(board, v, m.seat), func(h monoHolding) bool { return h.Houses > 0 }) {
			return "no building to sell"
		}
	case "bid":
		if au := v.State.Auction; au != nil && cash <= au.HighBid {
			return fmt.Sprintf("cash $%d cannot raise the high bid $%d", cash, au.HighBid)
		}
	}
	return ""
}

// noBuild says why no street of the agent can take a building: a house
// needs a whole colour group, none of it mortgaged, and the house's cost.
func (m *monoRun) noBuild(board *monopoly.Board, v monoView, cash int) string {
	owner := map[int]monoHolding{}
	for _, h := range v.State.Holdings {
		owner[h.Square] = h
	}
	for _, h := range ownedStreets(board, v, m.seat) {
		whole := true
		for _, o := range board.Group(h.Square) {
			g, ok := owner[o]
			whole = whole && ok && g.Owner == m.seat && !g.Mortgaged
		}
		if whole && h.Houses < 5 && cash >= board.Squares[h.Square].HouseCost {
			return ""
		}
	}
	return fmt.Sprintf("no whole, unmortgaged colour group with a house the cash $%d covers", cash)
}

// canLift reports whether the agent holds a mortgaged property whose
// mortgage value plus 10% (rounded down, the most lenient reading) its
// cash covers (PYYOL-MONO-ACT-UNMORTGAGE).
func (m *monoRun) canLift(board *monopoly.Board, v monoView, cash int) bool {
	return slices.ContainsFunc(v.State.Holdings, func(h monoHolding) bool {
		return h.Owner == m.seat && h.Mortgaged && board.Ownable(h.Square) && cash >= board.MortgageValue(h.Square)*11/10
	})
}

// judgeDecks fails a view that shows what is still hidden: the order of
// the decks, found by value (three or more card texts in one list) or by
// a list of two or more cards under a key naming a deck, or as card ids:
// a list of numbers under a key naming a deck that the draws after the
// view follow, card for card (a list of numbers is otherwise counts,
// which tell no order). A list of cards all drawn before the view is
// the public history the card_drawn events told, never a leak
// (PYYOL-MONO-PERFECT-INFO).
func judgeDecks(board *monopoly.Board, i int, v any, d cardDraws) error {
	if v == nil {
		return nil
	}
	where := deckList(v, "", cardTexts(board), d.public())
	if where == "" {
		where = d.idOrder(v, "")
	}
	if where != "" {
		return verdict.Failf("PYYOL-MONO-PERFECT-INFO", "the unshuffled decks hidden", where, "turn view %d", i)
	}
	return nil
}

// cardTextsOf holds each board's card texts, built once.
var cardTextsOf sync.Map

// cardTexts is the set of the board's Chance and Community Chest texts.
func cardTexts(board *monopoly.Board) map[string]bool {
	if t, ok := cardTextsOf.Load(board); ok {
		return t.(map[string]bool)
	}
	texts := map[string]bool{}
	for _, c := range append(slices.Clone(board.Chance), board.CommunityChest...) {
		texts[c.Text] = true
	}
	cardTextsOf.Store(board, texts)
	return texts
}

// decodedBody is the turn's view decoded: the tree the reader kept, or
// the body decoded now.
func (t *monoTurn) decodedBody() any {
	if t.tree != nil {
		return t.tree
	}
	var v any
	if len(t.body) == 0 || json.Unmarshal(t.body, &v) != nil {
		return nil
	}
	return v
}

// deckList finds, under v, a list that reveals a deck's order; path is
// where v sits.
func deckList(v any, path string, texts, public map[string]bool) string {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if l, ok := x.([]any); ok && len(l) > 1 && !numbers(l) && strings.Contains(strings.ToLower(k), "deck") && !drawnBefore(l, public) {
				return fmt.Sprintf("a %d-card list at %s.%s", len(l), path, k)
			}
			if w := deckList(x, path+"."+k, texts, public); w != "" {
				return w
			}
		}
	case []any:
		n := 0
		for _, x := range v {
			if s, ok := x.(string); ok && texts[s] {
				n++
			}
		}
		if n >= 3 && !drawnBefore(v, public) {
			return fmt.Sprintf("%d card texts in order at %s", n, path)
		}
		for j, x := range v {
			if w := deckList(x, fmt.Sprintf("%s[%d]", path, j), texts, public); w != "" {
				return w
			}
		}
	}
	return ""
}

// drawnBefore reports whether every entry of l is the text of a card
// drawn before the view (public).
func drawnBefore(l []any, public map[string]bool) bool {
	for _, x := range l {
		if s, ok := x.(string); !ok || !public[s] {
			return false
		}
	}
	return true
}

// numbers reports whether a list holds numbers only (counts, which tell
// no order).
func numbers(l []any) bool {
	for _, x := range l {
		switch x.(type) {
		case float64, json.Number: // decoded by json.Unmarshal or decodeJSON
		default:
			return false
		}
	}
	return true
}
