package pyyol

import (
	"context"
	"encoding/json"

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

const stakesPath = "/games/goofspiel/stakes"

const adminStakesPath = "/admin/games/goofspiel/stakes"

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

func hasKey(ts []tier, key string) bool {
	for _, t := range ts {
		if t.Key == key {
			return true
		}
	}
	return false
}

var badRule = map[string]string{"zero coins": "PYYOL-STAKES-POSITIVE", "a repeated key": "PYYOL-STAKES-UNIQUE",
	"a decreasing amount": "PYYOL-STAKES-INCREASING", "a negative amount": "PYYOL-STAKES-POSITIVE",
	"an equal amount": "PYYOL-STAKES-INCREASING", "a repeated key on a disabled tier": "PYYOL-STAKES-UNIQUE"}

// restoreTiers puts back the set read before a change, if any changed.
func (p *platRun) restoreTiers(ctx context.Context) {
	if p.saved == nil || p.admin == "" {
		return
	}
	p.put(context.WithoutCancel(ctx), p.saved)
}
