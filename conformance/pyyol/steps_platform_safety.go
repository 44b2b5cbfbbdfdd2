package pyyol

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/manifest"
)

// productionPlatformFlag holds a target to the loopback refusal a
// development platform may opt out of ("dev can opt in for localhost").
var productionPlatformFlag = suite.Flag{Name: "production-platform", Kind: suite.FlagBool,
	Usage: "pyyol-platform: the target is a production platform, so it must refuse loopback endpoints too (a development platform may opt in for localhost)"}

// tripwireSettle is how long the kit lets a connection the platform made
// reach the tripwire's count before it reads it.
const tripwireSettle = 250 * time.Millisecond

// safetyProbe is one SSRF scenario: the class probed, the tripwire behind
// the kit's own address of it, and why the refusal could not be decided
// (empty when it was).
type safetyProbe struct {
	class     string
	tripwire  *driver.Tripwire
	undecided string
}

// platformSafetySteps registers the steps of features/pyyol/platform-safety.feature.
func (p *pfRun) platformSafetySteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^a practice agent key for the platform checks$`), p.key)
	sc.Step(pattern(`^a tripwire on this machine's own (.+) address$`), p.tripwireOn)
	sc.Step(pattern(`^the agent submits a manifest whose endpoint.url is the tripwire$`), p.submitTripwire)
	sc.Step(pattern(`^the platform refuses it at submit or at verify$`), p.refusedForbidden)
	sc.Step(pattern(`^the tripwire counted no connection$`), p.tripwireUntouched)
}

func (p *pfRun) key(ctx context.Context) error {
	p.g = &gwRun{env: p.env}
	return p.g.key(ctx)
}

// tripwireOn listens on this machine's own address of class; a class the
// machine holds none of is unchecked, and loopback only binds a platform
// run with --production-platform.
func (p *pfRun) tripwireOn(class string) error {
	if class == "loopback" && !p.env.Settings.Bool(productionPlatformFlag.Name) {
		return verdict.Skipf("unchecked: a development platform may opt in for localhost (protocol.md); pass --production-platform to hold a production platform to the loopback refusal")
	}
	host, ok := ownAddress(class)
	if !ok {
		return verdict.Skipf("unchecked: this machine holds no %s address to name", class)
	}
	tw, err := driver.NewTripwire(net.JoinHostPort(host, "0"))
	if err != nil {
		return verdict.Skipf("unchecked: cannot listen on this machine's %s address %s: %v", class, hostOnly(host), err)
	}
	p.env.Cleanup(func() { tw.Close() })
	p.probe = &safetyProbe{class: class, tripwire: tw}
	return nil
}

// ownerCall sends one owner request under the agent's manifest route.
func (p *pfRun) ownerCall(ctx context.Context, method, sub string, body any) error {
	path := "/agents/" + url.PathEscape(p.g.agentID) + "/manifest" + sub
	resp, err := platformDriver(p.env).Do(ctx, driver.Request{Method: method, Path: path, JSON: body,
		Header: map[string]string{"Authorization": "Bearer " + p.g.token}, Allow: []int{400, 401, 403, 404, 405, 409, 422, 501}})
	p.Last = resp
	return err
}

// submitTripwire submits the docs' example manifest naming the tripwire;
// the kit itself never sends anything there.
func (p *pfRun) submitTripwire(ctx context.Context) error {
	return p.ownerCall(ctx, "POST", "", manifest.Example(p.probe.tripwire.URL()+"/kit-agent/turn"))
}

// refusedForbidden passes a 4xx at submit, or a verify that does not
// verify; it fails a verify that verifies (PYYOL-PLAT-SSRF). A platform
// not on this machine is not asked to verify: the refusal is then left
// undecided for the tripwire step, which still fails a connection.
func (p *pfRun) refusedForbidden(ctx context.Context) error {
	switch st := p.Last.Status; {
	case st == 404 || st == 405 || st == 501:
		p.probe.undecided = "unchecked: the target does not serve the manifest submit"
		return nil
	case st >= 400 && st < 500:
		return nil
	case st/100 != 2:
		p.probe.undecided = fmt.Sprintf("unchecked: the submit answered %d", st)
		return nil
	}
	if p.env.Elsewhere() {
		p.probe.undecided = "unchecked: the platform stored a manifest naming the kit's " + p.probe.class +
			" address; the kit does not ask a platform on another machine to verify it, since on that platform's network the address may be someone else's"
		return nil
	}
	var stored struct {
		ID string `json:"manifest_id"`
	}
	if json.Unmarshal(p.Last.Body, &stored) != nil || stored.ID == "" {
		p.probe.undecided = "unchecked: the platform stored the manifest without a manifest_id"
		return nil
	}
	sub := "/" + url.PathEscape(stored.ID)
	if err := p.ownerCall(ctx, "PUT", sub+"/endpoint-secret", map[string]string{"token": "kit-never-used"}); err != nil {
		return err
	}
	if err := p.ownerCall(ctx, "POST", sub+"/verify", nil); err != nil {
		return err
	}
	var rep struct {
		Verified bool `json:"verified"`
	}
	if p.Last.Status == 200 && json.Unmarshal(p.Last.Body, &rep) == nil && rep.Verified {
		return verdict.Failf("PYYOL-PLAT-SSRF", "a refusal at submit or verify", "verified: true",
			"a manifest naming the kit's own %s address", p.probe.class)
	}
	return nil
}

// tripwireUntouched fails any connection to the tripwire: the platform
// called an address it must refuse to call (PYYOL-PLAT-SSRF), whatever
// its verify answered. Only then does an undecided refusal skip.
func (p *pfRun) tripwireUntouched() error {
	time.Sleep(tripwireSettle)
	if n := p.probe.tripwire.Hits(); n > 0 {
		return verdict.Failf("PYYOL-PLAT-SSRF", "no connection to a forbidden address", fmt.Sprintf("%d connection(s)", n),
			"the kit's tripwire at its own %s address, named in endpoint.url", p.probe.class)
	}
	if p.probe.undecided != "" {
		return verdict.Skipf("%s", p.probe.undecided)
	}
	return nil
}
