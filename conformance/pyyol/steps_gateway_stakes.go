package pyyol

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// gatewayStakesSteps registers the steps of features/pyyol/gateway-stakes.feature.
func (p *platRun) gatewayStakesSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the platform's admin token$`), p.adminToken)
	sc.Step(pattern(`^anyone reads the stake tiers of goofspiel$`), p.readPublic)
	sc.Step(pattern(`^the menu lists only enabled tiers, by ordering, strictly increasing$`), p.menuOrdered)
	sc.Step(pattern(`^the admin adds a disabled tier to goofspiel$`), p.addDisabled)
	sc.Step(pattern(`^the admin set shows the disabled tier and the public menu does not$`), p.disabledHidden)
	sc.Step(pattern(`^the admin replaces the goofspiel tiers with (zero coins|a repeated key|a decreasing amount|a negative amount|an equal amount|a repeated key on a disabled tier)$`), p.replaceBad)
	sc.Step(pattern(`^the tier set is refused and unchanged$`), p.refusedUnchanged)
	sc.Step(pattern(`^someone without the admin token (reads|replaces) the goofspiel tiers$`), p.noToken)
	sc.Step(pattern(`^someone with another platform-shaped token (reads|replaces) the goofspiel tiers$`), p.otherToken)
	sc.Step(pattern(`^the admin call is refused$`), p.adminRefused)
}

func (p *platRun) adminToken() (err error) {
	p.admin, err = adminToken(p.g.env)
	return err
}

func (p *platRun) readPublic(ctx context.Context) error {
	return p.call(ctx, "GET", stakesPath, nil, "")
}

func (p *platRun) menuOrdered() error {
	ts, err := p.tiers("PYYOL-STAKES-PUBLIC")
	if err != nil {
		return err
	}
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Ordering < ts[j].Ordering })
	for i, t := range ts {
		if !t.on() {
			return verdict.Failf("PYYOL-STAKES-PUBLIC", "enabled tiers only", t.Key, "the public menu lists a disabled tier")
		}
		if t.Coins <= 0 || (i > 0 && t.Coins <= ts[i-1].Coins) {
			return verdict.Failf("PYYOL-STAKES-PUBLIC", "positive amounts strictly increasing by ordering", fmt.Sprint(ts), "the public menu")
		}
	}
	return nil
}

func (p *platRun) addDisabled(ctx context.Context) error {
	ts, err := p.readAdmin(ctx)
	if err != nil {
		return err
	}
	top := tier{Coins: 0, Ordering: -1}
	for _, t := range ts {
		if t.Ordering > top.Ordering {
			top = t
		}
	}
	off := false
	// The new tier leads the array though it comes last by ordering: the
	// amounts increase by ordering, not by position, and a set listed in
	// another order is as valid (PYYOL-STAKES-ADMIN, PYYOL-STAKES-INCREASING).
	ts = append([]tier{{Key: "kit_probe", Label: "Kit probe", Coins: top.Coins + 1000, Ordering: top.Ordering + 1, Enabled: &off}}, ts...)
	if err := p.put(ctx, ts); err != nil {
		return err
	}
	if p.Last.Status/100 != 2 {
		return verdict.Failf("PYYOL-STAKES-ADMIN", "2xx", p.Last.Status, "replacing the set with one more, disabled tier")
	}
	return nil
}

func (p *platRun) disabledHidden(ctx context.Context) error {
	ts, err := p.readAdmin(ctx)
	if err != nil {
		return err
	}
	if !hasKey(ts, "kit_probe") {
		return verdict.Failf("PYYOL-STAKES-ADMIN", "the full set with the disabled kit_probe tier", fmt.Sprint(ts), "the admin GET after the PUT")
	}
	// "Changes take effect within ~10s": the public menu may lag a little.
	// Only a read sent after the deadline can fail: one a slow runner sent
	// before it was answered within the window, whenever its answer came.
	deadline := time.Now().Add(propagation(p.g.env))
	for {
		sent := time.Now()
		if err := p.readPublic(ctx); err != nil {
			return err
		}
		menu, err := p.tiers("PYYOL-STAKES-PUBLIC")
		if err != nil {
			return err
		}
		if !hasKey(menu, "kit_probe") {
			return nil
		}
		if sent.After(deadline) {
			return verdict.Failf("PYYOL-STAKES-PUBLIC", "the menu without the disabled tier", fmt.Sprint(menu), "the public menu, read %v after the change", propagation(p.g.env))
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func (p *platRun) replaceBad(ctx context.Context, problem string) error {
	ts, err := p.readAdmin(ctx)
	if err != nil {
		return err
	}
	if len(ts) < 2 {
		return verdict.Skipf("the goofspiel set has fewer than two tiers to break")
	}
	p.lastField = problem
	return p.put(ctx, brokenSet(ts, problem))
}

// brokenSet is ts with the one problem the scenario names, every other
// condition kept: each documented refusal probed on its own, at its
// boundary where it has one (a negative amount beside zero, an equal
// amount beside a decreasing one), and on a disabled tier too, since the
// validation is of the whole set, not of the menu it makes
// (PYYOL-STAKES-POSITIVE, PYYOL-STAKES-UNIQUE, PYYOL-STAKES-INCREASING).
func brokenSet(ts []tier, problem string) []tier {
	bad := append([]tier{}, ts...)
	sort.SliceStable(bad, func(i, j int) bool { return bad[i].Ordering < bad[j].Ordering })
	switch problem {
	case "zero coins":
		bad[0].Coins = 0
	case "a negative amount":
		bad[0].Coins = -bad[0].Coins - 1
	case "a repeated key":
		bad[1].Key = bad[0].Key
	case "a decreasing amount":
		bad[len(bad)-1].Coins = 1
		bad[len(bad)-1].Ordering = 1 << 20
	case "an equal amount":
		bad[1].Coins = bad[0].Coins
	case "a repeated key on a disabled tier":
		top := bad[len(bad)-1]
		off := false
		bad = append(bad, tier{Key: bad[0].Key, Label: "Kit repeat", Coins: top.Coins + 1000, Ordering: top.Ordering + 1, Enabled: &off})
	}
	return bad
}

func (p *platRun) refusedUnchanged(ctx context.Context) error {
	rule := badRule[p.lastField]
	if p.Last.Status < 400 || p.Last.Status > 499 {
		return verdict.Failf(rule, "a 4xx refusal", p.Last.Status, "replacing the tiers with %s", p.lastField)
	}
	before, _ := json.Marshal(p.saved)
	ts, err := p.readAdmin(ctx)
	if err != nil {
		return err
	}
	after, _ := json.Marshal(ts)
	if string(before) != string(after) {
		return verdict.Failf(rule, string(before), string(after), "the tier set after a refused replacement")
	}
	return nil
}

func (p *platRun) noToken(ctx context.Context, how string) error {
	if how == "reads" {
		return p.call(ctx, "GET", adminStakesPath, nil, "")
	}
	on := true
	return p.put(ctx, []tier{{Key: "kit_free", Label: "Free", Coins: 1, Ordering: 0, Enabled: &on}})
}

// otherToken calls the admin API with a bearer shaped like a platform
// token ("pt_", as the reference's) that is not the platform's: a check of
// the token's form alone, not its value, lets it in
// (PYYOL-STAKES-ADMIN-AUTH).
func (p *platRun) otherToken(ctx context.Context, how string) error {
	b := make([]byte, 8)
	rand.Read(b)
	token := "pt_kit_not_admin_" + hex.EncodeToString(b)
	if how == "reads" {
		return p.call(ctx, "GET", adminStakesPath, nil, token)
	}
	on := true
	return p.call(ctx, "PUT", adminStakesPath, map[string]any{"tiers": []tier{{Key: "kit_free", Label: "Free", Coins: 1, Ordering: 0, Enabled: &on}}}, token)
}

// adminRefused judges the admin call made without the platform's token
// (PYYOL-STAKES-ADMIN-AUTH): 401 or 403 is the refusal. A 404 never
// reaches it: the driver reports the route "not served" and the check is
// unchecked, never passed.
func (p *platRun) adminRefused() error {
	if p.Last.Status != 401 && p.Last.Status != 403 {
		return verdict.Failf("PYYOL-STAKES-ADMIN-AUTH", "401 or 403", p.Last.Status, "the admin API without the platform's token")
	}
	return nil
}
