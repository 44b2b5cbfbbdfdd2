package stakes_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"

	"github.com/agentgames/conformance/reference/pyyol/stakes"
)

func TestValidate(t *testing.T) {
	assert.Nil(t, stakes.Validate(stakes.Default()))
	cases := map[string]func([]stakes.Tier){
		"zero coins":     func(ts []stakes.Tier) { ts[0].Coins = 0 },
		"duplicate key":  func(ts []stakes.Tier) { ts[1].Key = "low" },
		"not increasing": func(ts []stakes.Tier) { ts[2].Coins = 500 },
		"same ordering":  func(ts []stakes.Tier) { ts[2].Ordering = 1 },
		"no key":         func(ts []stakes.Tier) { ts[0].Key = "" },
	}
	for name, edit := range cases {
		ts := stakes.Default()
		edit(ts)
		p := stakes.Validate(ts)
		if assert.NotNil(t, p, name) {
			assert.Equal(t, "invalid_tiers", p.Code)
		}
	}
	shuffled := []stakes.Tier{stakes.Default()[2], stakes.Default()[0], stakes.Default()[1]}
	assert.Nil(t, stakes.Validate(shuffled), "increasing by ordering, not by position")
}

func TestSettlementIsZeroSumBeforeTheRake(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.Int64Range(1, 1_000_000).Draw(t, "stake")
		r := rapid.Int64Range(0, 20).Draw(t, "percent")
		rake := stakes.Rake(s, r)
		win, loss, tie := stakes.Settle(s, rake, 1), stakes.Settle(s, rake, -1), stakes.Settle(s, rake, 0)
		if win+loss != -rake || tie != 0 || loss != -s {
			t.Fatalf("stake %d rake %d: win %d loss %d tie %d", s, rake, win, loss, tie)
		}
	})
}

func TestAdmit(t *testing.T) {
	l := stakes.Limits{Balance: 1000, MinWalletBalance: 100, MaxBid: 600, CoinLimitPerMatch: 800}
	assert.Nil(t, stakes.Admit(500, l))
	assert.Equal(t, "insufficient_balance", stakes.Admit(901, stakes.Limits{Balance: 1000, MinWalletBalance: 100, MaxBid: 5000, CoinLimitPerMatch: 5000}).Code)
	assert.Equal(t, "over_max_bid", stakes.Admit(700, l).Code)
	l.MaxBid = 900
	assert.Equal(t, "over_coin_limit_per_match", stakes.Admit(850, stakes.Limits{Balance: 5000, MaxBid: 900, CoinLimitPerMatch: 800}).Code)
	assert.Equal(t, []stakes.Tier{stakes.Default()[0], stakes.Default()[2]}, stakes.Menu([]stakes.Tier{stakes.Default()[2],
		{Key: "mid", Coins: 500, Ordering: 1}, stakes.Default()[0]}), "the public menu drops disabled tiers and sorts")
}
