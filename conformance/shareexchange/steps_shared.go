package shareexchange

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	rsx "github.com/agentgames/conformance/reference/shareexchange"
)

// sharedSteps registers the steps several feature files use.
func (w *world) sharedSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the answer refuses with (\d+) "([^"]*)"$`), w.refused)
}

// refused checks a refusal's status and code. A non-broker's pull
// answered by a grace_lapsed release once the grace may have run out
// (graceMayHaveLapsed) checks nothing: the runner was too slow to see the
// grace running.
func (w *world) refused(status int, code string) error {
	if code == "not_broker" && w.Last.Status == http.StatusOK && w.body["code"] == "grace_lapsed" && w.graceMayHaveLapsed() {
		return verdict.Skipf("the board was listed %v ago, so the broker's 30 s grace may have lapsed before the pull: a grace_lapsed release is right then, and nothing is checked",
			w.now().Sub(w.listedAt).Round(time.Second))
	}
	if w.Last.Status != status || w.body["code"] != code || w.body["ok"] != false {
		return verdict.Failf(w.rule, fmt.Sprintf("%d %s", status, code), fmt.Sprintf("%d %v", w.Last.Status, w.body["code"]), "%s", w.Last.Body)
	}
	if _, leaked := w.body["share_hex"]; leaked && !w.offered {
		return verdict.Failf(w.rule, "no share_hex in a refusal", "share_hex", "")
	}
	if h := w.shareIn(w.Last.Body); h != "" && !w.offered {
		return verdict.Failf(w.rule, "no share in a refusal", "a share_hex the runner holds, under another key", "%s", w.Last.Body)
	}
	return w.refusalShaped()
}

// shareIn is the first share_hex the runner knows (any agent's, any
// share) that body carries, searched by value in either hex case: a
// refusal releases nothing, under whatever key or nesting.
func (w *world) shareIn(body []byte) string {
	text := strings.ToLower(string(body))
	for _, shares := range w.hex {
		for _, h := range shares {
			if h != "" && strings.Contains(text, strings.ToLower(h)) {
				return h
			}
		}
	}
	return ""
}

// refusalShaped: every refusal, whatever its code, is {ok: false,
// protocol, code, reason}, and an offer's refusal carries kind: offer
// beside them, as the convention's refused offer body names it
// (SX-REFUSED-BODY), judged after the code the scenario's rule fixes.
func (w *world) refusalShaped() error {
	reason, _ := w.body["reason"].(string)
	if w.body["protocol"] != rsx.Protocol || reason == "" {
		return verdict.Failf("SX-REFUSED-BODY", "{ok: false, protocol, code, reason}", string(w.Last.Body), "a %v refusal", w.body["code"])
	}
	if w.offered && w.body["kind"] != "offer" {
		return verdict.Failf("SX-REFUSED-BODY", "{ok: false, protocol, kind: offer, code, reason}", string(w.Last.Body), "an offer's %v refusal", w.body["code"])
	}
	return nil
}
