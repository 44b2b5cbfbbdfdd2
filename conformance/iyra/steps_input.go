package iyra

import (
	"context"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
)

// submitRaw is a When step sending raw, verbatim, as the body of an action
// request on the scenario's session.
func (w *world) submitRaw(ctx context.Context, raw string) error {
	if err := w.needSession(); err != nil {
		return err
	}
	return w.when(ctx, func() (*driver.Response, error) { return w.submit(ctx, w.sess, nil, []byte(raw)) })
}

// inputSteps registers the steps of features/iyra/input.feature.
func (w *world) inputSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the agent submits the raw action body (.+)$`), w.submitRaw)
}
