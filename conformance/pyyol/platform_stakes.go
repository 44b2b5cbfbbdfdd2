package pyyol

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/cucumber/godog"

	"github.com/agentgames/conformance/conformance/verdict"
)

// tier is one stake tier as the API shows it.
type tier struct {
	Key      string `json:"key"`
	Label    string `json:"label"`
	Coins    int64  `json:"coins"`
	Ordering int    `json:"ordering"`
	Enabled  *bool  `json:"enabled,omitempty"`
}

// on reports whether a tier is enabled; a menu may leave the flag out.
func (t tier) on() bool { return t.Enabled == nil || *t.Enabled }

func platformStakeSteps(sc *godog.ScenarioContext, p *platRun) {
	sc.Step(pattern(`^the platform's admin token$`), p.adminToken)
	sc.Step(pattern(`^anyone reads the stake tiers of goofspiel$`), p.readPublic)
	sc.Step(pattern(`^the menu lists only enabled tiers, by ordering, strictly increasing$`), p.menuOrdered)
	sc.Step(pattern(`^the admin adds a disabled tier to goofspiel$`), p.addDisabled)
	sc.Step(pattern(`^the admin set shows the disabled tier and the public menu does not$`), p.disabledHidden)
	sc.Step(pattern(`^the admin replaces the goofspiel tiers with (zero coins|a repeated key|a decreasing amount)$`), p.replaceBad)
	sc.Step(pattern(`^the tier set is refused and unchanged$`), p.refusedUnchanged)
	sc.Step(pattern(`^someone without the admin token (reads|replaces) the goofspiel tiers$`), p.noToken)
	sc.Step(pattern(`^the admin call is refused$`), p.adminRefused)
	platformRankedSteps(sc, p)
}

const stakesPath = "/games/goofspiel/stakes"

// propagation is how long a tier change may take to reach the public menu
// ("Changes take effect within ~10s").
var propagation = 12 * time.Second

const adminStakesPath = "/admin/games/goofspiel/stakes"

func (p *platRun) adminToken() (err error) {
	p.admin, err = adminToken(p.g.env)
	return err
}

// tiers decodes the last answer's tier list.
func (p *platRun) tiers(rule string) ([]tier, error) {
	var body struct {
		Tiers []tier `json:"tiers"`
	}
	if p.Last.Status != 200 || json.Unmarshal(p.Last.Body, &body) != nil || body.Tiers == nil {
		return nil, verdict.Failf(rule, `200 {"tiers": [...]}`, p.g.env.HTTP.Secrets().Clip(p.Last.Body), "status %d", p.Last.Status)
	}
	return body.Tiers, nil
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

// readAdmin reads the full set; the first read is saved for restoring.
func (p *platRun) readAdmin(ctx context.Context) ([]tier, error) {
	if err := p.call(ctx, "GET", adminStakesPath, nil, p.admin); err != nil {
		return nil, err
	}
	ts, err := p.tiers("PYYOL-STAKES-ADMIN")
	if err == nil && p.saved == nil {
		p.saved = append([]tier{}, ts...)
	}
	return ts, err
}

func (p *platRun) put(ctx context.Context, ts any) error {
	return p.call(ctx, "PUT", adminStakesPath, map[string]any{"tiers": ts}, p.admin)
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
	ts = append(ts, tier{Key: "kit_probe", Label: "Kit probe", Coins: top.Coins + 1000, Ordering: top.Ordering + 1, Enabled: &off})
	if err := p.put(ctx, ts); err != nil {
		return err
	}
	if p.Last.Status/100 != 2 {
		return verdict.Failf("PYYOL-STAKES-ADMIN", "2xx", p.Last.Status, "replacing the set with one more, disabled tier")
	}
	return nil
}

func hasKey(ts []tier, key string) bool {
	for _, t := range ts {
		if t.Key == key {
			return true
		}
	}
	return false
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
	deadline := time.Now().Add(propagation)
	for {
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
		if time.Now().After(deadline) {
			return verdict.Failf("PYYOL-STAKES-PUBLIC", "the menu without the disabled tier", fmt.Sprint(menu), "the public menu")
		}
		time.Sleep(500 * time.Millisecond)
	}
}

var badRule = map[string]string{"zero coins": "PYYOL-STAKES-POSITIVE", "a repeated key": "PYYOL-STAKES-UNIQUE",
	"a decreasing amount": "PYYOL-STAKES-INCREASING"}

func (p *platRun) replaceBad(ctx context.Context, problem string) error {
	ts, err := p.readAdmin(ctx)
	if err != nil {
		return err
	}
	if len(ts) < 2 {
		return verdict.Skipf("the goofspiel set has fewer than two tiers to break")
	}
	bad := append([]tier{}, ts...)
	switch problem {
	case "zero coins":
		bad[0].Coins = 0
	case "a repeated key":
		bad[1].Key = bad[0].Key
	case "a decreasing amount":
		bad[len(bad)-1].Coins = 1
		bad[len(bad)-1].Ordering = 1 << 20
	}
	p.lastField = problem
	return p.put(ctx, bad)
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

func (p *platRun) adminRefused() error {
	if p.Last.Status != 401 && p.Last.Status != 403 && p.Last.Status != 404 {
		return verdict.Failf("PYYOL-STAKES-ADMIN-AUTH", "401 or 403", p.Last.Status, "the admin API without a token")
	}
	return nil
}

// restoreTiers puts back the set read before a change, if any changed.
func (p *platRun) restoreTiers(ctx context.Context) {
	if p.saved == nil || p.admin == "" {
		return
	}
	p.put(context.WithoutCancel(ctx), p.saved)
}
