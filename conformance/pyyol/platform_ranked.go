package pyyol

import (
	"context"
	"encoding/json"

	"github.com/agentgames/conformance/conformance/verdict"
)

func (p *platRun) walletPath() string { return "/agents/" + p.g.agentID + "/wallet" }

func (p *platRun) readWallet(ctx context.Context) error {
	if err := p.call(ctx, "GET", p.walletPath(), nil, p.g.token); err != nil {
		return err
	}
	if p.Last.Status != 200 {
		return verdict.Skipf("the target has no wallet endpoint (PYYOL-REF-QUEUE)")
	}
	return nil
}

func (p *platRun) lastWallet() map[string]int64 {
	var w map[string]int64
	json.Unmarshal(p.Last.Body, &w)
	return w
}
