package pyyol

import (
	"context"
	"errors"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
)

// pfRun is one pyyol-platform scenario: it judges the run's one push
// session (platSession), or checks the platform's outbound refusals.
type pfRun struct {
	suite.Scenario[suite.NoState]
	env *suite.Env
	s   *platSession
	g   *gwRun
	// probe is the SSRF scenario's tripwire (platform-safety.feature).
	probe *safetyProbe
}

// platformSideSteps registers every pyyol-platform step on sc.
func platformSideSteps(sc *suite.ScenarioContext, env *suite.Env) {
	p := &pfRun{env: env}
	p.Bind(sc, env)
	p.platformPushSteps(sc)
	p.platformFallbackSteps(sc)
	p.platformSafetySteps(sc)
}

// platformPushSteps registers the steps of features/pyyol/platform-push.feature.
func (p *pfRun) platformPushSteps(sc *suite.ScenarioContext) {
	sc.Step(pattern(`^the platform has verified the kit's endpoint and pushed it a match$`), p.session)
	judges := map[string]func() error{
		`^every request but /health carries a signature that verifies$`:          p.judgeSeen((*platSession).judgeSigned),
		`^no signature binds a query string$`:                                    p.judgeSeen((*platSession).judgeSignPath),
		`^every signed request carries the three X-Arena headers$`:               p.judgeSeen((*platSession).judgeHeaders),
		`^every signed request carries the endpoint secret as a Bearer token$`:   p.judgeSeen((*platSession).judgeBearer),
		`^every timestamp is RFC3339 UTC and within 300 seconds of its arrival$`: p.judgeSeen((*platSession).judgeTimestamp),
		`^no nonce repeats$`: p.judgeSeen((*platSession).judgeNonce),
		`^every body the platform sent carries "protocol": "1.0"$`:                   p.judgeSeen((*platSession).judgeProtocol),
		`^the liveness probe is a GET of /health$`:                                   p.judgeSeen((*platSession).judgeHealth),
		`^every route the platform called is endpoint.url or a sibling of it$`:       p.judgeSeen((*platSession).judgeSiblings),
		`^the match began with an /initialize naming the seat and the player count$`: p.judge((*platSession).judgeInitialize),
		`^every /turn carried the game and a view with legal actions$`:               p.judge((*platSession).judgeTurnBody),
		`^every /event was \{seq, type, payload\} with no seq used twice$`:           p.judge((*platSession).judgeEventBody),
		`^the match ended with a /game-end carrying the result$`:                     p.judge((*platSession).judgeGameEnd),
		`^the next /turn came while the kit held an /event unanswered$`:              p.judge((*platSession).judgeOneWay),
		`^the match came without the kit asking the practice route$`:                 p.judge((*platSession).judgePracticeAfterVerify),
		`^the handshake body names the platform$`:                                    p.judge((*platSession).judgeHandshakePlatform),
	}
	for expr, f := range judges {
		sc.Step(pattern(expr), f)
	}
}

// session takes the run's push session (played once, on first use). A
// session that stopped short (the platform refused to verify the kit's
// endpoint, say) after the platform called the endpoint goes on to the
// judges: what it did send is judged (judgeSeen) before the scenario
// skips for what it did not.
func (p *pfRun) session(ctx context.Context) error {
	p.s = platformSession(ctx, p.env)
	if err := p.s.ready(); err != nil && !p.s.heard() {
		return err
	}
	return nil
}

// judge binds a judge of the whole match to the scenario's session: it
// needs the match, so a session that stopped short skips with its reason.
func (p *pfRun) judge(f func(*platSession) error) func() error {
	return func() error {
		if err := p.s.ready(); err != nil {
			return err
		}
		return f(p.s)
	}
}

// judgeSeen binds a judge of every request the platform made: on a
// session that stopped short it still judges the requests that came, so
// a MUST violation among them fails (the most severe finding wins); with
// none found the scenario skips with the session's reason, since the
// match's requests never came to be judged.
func (p *pfRun) judgeSeen(f func(*platSession) error) func() error {
	return func() error {
		err := f(p.s)
		var fail *verdict.Failure
		if errors.As(err, &fail) {
			return err
		}
		if short := p.s.ready(); short != nil {
			return short
		}
		return err
	}
}
