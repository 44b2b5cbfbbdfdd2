package bounty

import (
	"context"
	"net/http"
)

// payouts reads the winning answer's payouts by agent_id.
func (w *world) payouts() map[string]int {
	out := map[string]int{}
	if m, ok := w.won["payouts"].(map[string]any); ok {
		for id, v := range m {
			if f, ok := v.(float64); ok {
				out[id] = int(f)
			}
		}
	}
	return out
}

type ledgerDoc struct {
	Currency  string `json:"currency"`
	RealMoney *bool  `json:"real_money"`
	Payouts   []struct {
		ChallengeID string `json:"challenge_id"`
		AgentID     string `json:"agent_id"`
		Amount      int    `json:"amount"`
	} `json:"payouts"`
}

func (w *world) ledger(ctx context.Context, rule string) (ledgerDoc, error) {
	var l ledgerDoc
	err := w.want2xx(ctx, rule, http.MethodGet, "/ledger", nil, &l)
	return l, err
}
