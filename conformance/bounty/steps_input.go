package bounty

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// inputSteps registers the steps of features/bounty/input.feature.
func (w *world) inputSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^agent (\d+) lists with a body that (repeats its agent_id|holds an undocumented field|is not UTF-8|is larger than 64 KiB)$`), w.listRaw)
	sc.Step(pattern(`^the body is refused with 400 bad_request$`), w.refusedAsBadRequest)
}

// policyBody builds a listing body for member id with the named defect
// (BOUNTY-INPUT-POLICY): each one a reader that tolerated it would take
// for a valid listing (the last body is one, padded past 64 KiB).
func policyBody(id, contact, defect string) []byte {
	switch defect {
	case "repeats its agent_id":
		return fmt.Appendf(nil, `{"agent_id":%q,"contact":%q,"agent_id":%q}`, id, contact, id)
	case "holds an undocumented field":
		return fmt.Appendf(nil, `{"agent_id":%q,"contact":%q,"listing_note":"x"}`, id, contact)
	case "is not UTF-8":
		return fmt.Appendf(nil, `{"agent_id":%q,"contact":%q,"message":"caf`+"\xe9"+`"}`, id, contact)
	}
	return fmt.Appendf(nil, `{"agent_id":%q,"contact":%q%s}`, id, contact, strings.Repeat(" ", 65<<10)) // a valid listing, padded
}

// listRaw posts member i's listing with a defect, over HTTP whatever the
// transport (the policy is about bodies, which MCP tool arguments are not).
func (w *world) listRaw(ctx context.Context, i int, defect string) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	resp, err := w.env.HTTP.Do(ctx, driver.Request{Method: http.MethodPost, Path: "/challenge/" + w.cid + "/peers",
		Raw: policyBody(a.ID, contactOf(a), defect)})
	if err != nil {
		return err
	}
	w.Last = resp
	return nil
}

// refusedAsBadRequest: the contract's one code for a malformed body
// (BOUNTY-INPUT-POLICY, a REFERENCE choice: a deployment that reads the
// body otherwise gets a warning).
func (w *world) refusedAsBadRequest() error {
	if w.Last == nil || w.Last.Status != http.StatusBadRequest || raw(w.Last)["code"] != "bad_request" {
		status := 0
		if w.Last != nil {
			status = w.Last.Status
		}
		return verdict.Failf("BOUNTY-INPUT-POLICY", "400 {ok: false, code: bad_request}", status, "%s", w.clip(w.lastBody()))
	}
	return nil
}

// lastBody is the last answer's body, or nothing.
func (w *world) lastBody() []byte {
	if w.Last == nil {
		return nil
	}
	return w.Last.Body
}
