// Package stakes holds Pyyol's ranked-play money rules (ranked.md): the
// stake tier menu and its validation, an agent's limits, and settlement.
// It is pure; the reference platform serves it.
package stakes

import (
	"fmt"
	"slices"
	"sort"
)

// Tier is one stake tier of a game's menu.
type Tier struct {
	Key      string `json:"key"`
	Label    string `json:"label"`
	Coins    int64  `json:"coins"`
	Ordering int    `json:"ordering"`
	Enabled  bool   `json:"enabled"`
}

// Default is the menu the docs show: low 100, mid 500, high 2000.
func Default() []Tier {
	return []Tier{
		{Key: "low", Label: "Low", Coins: 100, Ordering: 0, Enabled: true},
		{Key: "mid", Label: "Mid", Coins: 500, Ordering: 1, Enabled: true},
		{Key: "high", Label: "High", Coins: 2000, Ordering: 2, Enabled: true},
	}
}

// Problem is why a tier set or an entry is refused: a machine-readable
// code and a sentence.
type Problem struct {
	Code    string `json:"error"`
	Message string `json:"message"`
}

func (p *Problem) Error() string { return p.Code + ": " + p.Message }

func problem(code, format string, args ...any) *Problem {
	return &Problem{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Validate checks a replacement tier set: "Coins must be positive, tier
// keys unique, and amounts strictly increasing by ordering".
func Validate(tiers []Tier) *Problem {
	seen := map[string]bool{}
	for _, t := range tiers {
		switch {
		case t.Key == "":
			return problem("invalid_tiers", "every tier needs a key")
		case t.Coins <= 0:
			// PYYOL-STAKES-POSITIVE
			return problem("invalid_tiers", "tier %q: coins must be positive, not %d", t.Key, t.Coins)
		case seen[t.Key]:
			// PYYOL-STAKES-UNIQUE
			return problem("invalid_tiers", "tier key %q appears twice", t.Key)
		}
		seen[t.Key] = true
	}
	byOrder := Sorted(tiers)
	for i := 1; i < len(byOrder); i++ {
		if byOrder[i].Ordering == byOrder[i-1].Ordering || byOrder[i].Coins <= byOrder[i-1].Coins {
			// PYYOL-STAKES-INCREASING
			return problem("invalid_tiers", "tier %q (%d coins) must cost more than %q (%d coins) before it by ordering",
				byOrder[i].Key, byOrder[i].Coins, byOrder[i-1].Key, byOrder[i-1].Coins)
		}
	}
	return nil
}

// Sorted returns the tiers by ordering.
func Sorted(tiers []Tier) []Tier {
	out := slices.Clone(tiers)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Ordering < out[j].Ordering })
	return out
}

// Menu is the public menu: the enabled tiers by ordering
// (PYYOL-STAKES-PUBLIC).
func Menu(tiers []Tier) []Tier {
	out := []Tier{}
	for _, t := range Sorted(tiers) {
		if t.Enabled {
			out = append(out, t)
		}
	}
	return out
}

// Limits are an agent's own guardrails and wallet.
type Limits struct {
	Balance           int64 `json:"balance"`
	MinWalletBalance  int64 `json:"min_wallet_balance"`
	MaxBid            int64 `json:"max_bid"`
	CoinLimitPerMatch int64 `json:"coin_limit_per_match"`
	Guards
}

// Admit says whether an agent with limits may stake: "balance ≥ stake +
// min_wallet_balance", "stake ≤ max_bid and stake ≤ coin_limit_per_match"
// (PYYOL-STAKES-LIMITS).
func Admit(stake int64, l Limits) *Problem {
	switch {
	case l.Balance < stake+l.MinWalletBalance:
		return problem("insufficient_balance", "balance %d is below stake %d + min_wallet_balance %d", l.Balance, stake, l.MinWalletBalance)
	case stake > l.MaxBid:
		return problem("over_max_bid", "stake %d exceeds max_bid %d", stake, l.MaxBid)
	case stake > l.CoinLimitPerMatch:
		return problem("over_coin_limit_per_match", "stake %d exceeds coin_limit_per_match %d", stake, l.CoinLimitPerMatch)
	}
	return nil
}

// Rake is the platform's cut of a pool of 2S at rake percent r, rounded
// down (PYYOL-REF-RAKE).
func Rake(stake int64, percent int64) int64 { return 2 * stake * percent / 100 }

// Settle is a seat's change of coins for an outcome (1 win, 0 tie, -1
// loss): win S − rake, loss −S, tie 0 (PYYOL-STAKES-SETTLEMENT).
func Settle(stake, rake int64, outcome int) int64 {
	switch {
	case outcome > 0:
		return stake - rake
	case outcome < 0:
		return -stake
	}
	return 0
}
