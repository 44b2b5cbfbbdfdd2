package shareexchange

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	rsx "github.com/agentgames/conformance/reference/shareexchange"
)

// inputSteps registers the steps of features/share-exchange/input.feature.
func (w *world) inputSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the broker pulls share (\d+) with a body that (repeats its requester|holds an undocumented field|is not UTF-8|is larger than 64 KiB)$`), w.pullRaw)
}

// defectivePull is the broker's valid pull of share, spoiled by defect
// (SX-INPUT-POLICY) so that a reader tolerating it would release the
// share: a repeated requester whose last value is the broker, an extra
// field, a byte that is not UTF-8 in the round's place, padding past 64
// KiB.
func (w *world) defectivePull(share int, defect string) []byte {
	body, _ := json.Marshal(map[string]any{"protocol": rsx.Protocol, "challenge_id": w.p.cid, "round": w.p.round,
		"requester": w.broker, "agent_id": w.mine, "share_index": share})
	inner := body[1 : len(body)-1]
	switch defect {
	case "repeats its requester":
		return fmt.Appendf(nil, `{"requester":"agent-unlisted",%s}`, inner)
	case "holds an undocumented field":
		return fmt.Appendf(nil, `{%s,"priority":"high"}`, inner)
	case "is not UTF-8":
		return fmt.Appendf(nil, `{%s,"reason":"caf`+"\xe9"+`"}`, inner)
	}
	return append(append(body[:len(body)-1:len(body)-1], bytes.Repeat([]byte(" "), 65<<10)...), '}')
}

// pullRaw sends the defective pull and keeps the answer for the shared
// refusal step.
func (w *world) pullRaw(ctx context.Context, share int, defect string) error {
	resp, err := w.env.HTTP.Do(ctx, driver.Request{Method: http.MethodPost, Path: "/", Raw: w.defectivePull(share, defect)})
	if err != nil {
		return err
	}
	w.Last, w.body = resp, map[string]any{}
	_ = json.Unmarshal(resp.Body, &w.body)
	return nil
}
