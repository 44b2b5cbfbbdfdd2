package pyyol_test

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/server"
)

// brokenRefereeGateways plants one realistic money, legality or
// hidden-information bug each in the reference engine behind the gateway
// (issue 25, class 4): the shadow referee must catch each live, naming
// the rule.
func brokenRefereeGateways() []struct {
	rule string
	opts server.Options
} {
	return []struct {
		rule string
		opts server.Options
	}{
		{"PYYOL-MONO-RENT", server.Options{Tamper: server.MonopolyRentIgnoresHouses}},
		{"PYYOL-MONO-RENT", server.Options{Tamper: server.MonopolyRentNoSetDouble}},
		{"PYYOL-MONO-RENT", server.Options{Tamper: server.MonopolyRailroadFlat}},
		{"PYYOL-MONO-RENT", server.Options{Tamper: server.MonopolyUtilityFlat}},
		{"PYYOL-MONO-RENT", server.Options{Tamper: server.MonopolyUtilityFee}},
		{"PYYOL-MONO-ECONOMY", server.Options{Tamper: server.MonopolyNoSalaryOnPass}},
		{"PYYOL-MONO-ECONOMY", server.Options{Tamper: server.MonopolySalaryTwice}},
		{"PYYOL-MONO-ECONOMY", server.Options{Tamper: server.MonopolyTaxSwapped}},
		{"PYYOL-MONO-ACT-MORTGAGE", server.Options{Tamper: server.MonopolyMortgageFullPrice}},
		{"PYYOL-MONO-VIEW-LEGAL", server.Options{Tamper: server.MonopolyBuyWithoutCash}},
		{"PYYOL-MONO-VIEW-LEGAL", server.Options{Tamper: server.MonopolyBuildWithoutSet}},
		{"PYYOL-MONO-ACT-PAY-JAIL", server.Options{Tamper: server.MonopolyJailFineDoubled}},
		{"PYYOL-MONO-EV-AUCTION-WON", server.Options{Tamper: server.MonopolyAuctionFree}},
		{"PYYOL-MONO-PERFECT-INFO", server.Options{Tamper: server.MonopolyDeckLeaked}},
		{"PYYOL-MONO-ACT-UNMORTGAGE", server.Options{Tamper: server.MonopolyUnmortgageAtPar}},
		{"PYYOL-MONO-ACT-BUY", server.Options{Tamper: server.MonopolyBuyOverprice}},
		{"PYYOL-MONO-ACT-BUILD", server.Options{Tamper: server.MonopolyBuildChargesPrice}},
		{"PYYOL-MONO-ACT-SELL-HOUSE", server.Options{Tamper: server.MonopolySellFullPrice}},
		{"PYYOL-MONO-ECONOMY", server.Options{Tamper: server.MonopolyJailPaysSalary}},
		{"PYYOL-MAFIA-REDACTED", server.Options{Tamper: server.MafiaRolesLeaked}},
		{"PYYOL-MAFIA-PRIVATE-OWN", server.Options{Tamper: server.MafiaKillTargetLeaked}},
		{"PYYOL-MAFIA-VOTE", server.Options{Tamper: server.MafiaLastVoteWins}},
		{"PYYOL-MAFIA-PROTECT", server.Options{Tamper: server.MafiaProtectIgnored}},
	}
}

// TestBrokenRefereeGatewaysFailTheirRule: each planted money, legality or
// secrecy bug, served over loopback and checked live, fails naming its
// rule.
func TestBrokenRefereeGatewaysFailTheirRule(t *testing.T) {
	t.Parallel()
	catchBrokenGateways(t, brokenRefereeGateways(), 10*time.Second)
}

// TestRefereeMustBeforeReference (issue 25, class 6): each planted money,
// legality or secrecy bug behind a gateway that also speaks a frame
// layout off the reference's (a PYYOL-REF-FRAMES warning on the views
// and events) still fails naming its MUST rule, the warning listed
// beside it: no REFERENCE note ends a check before its MUST condition is
// looked at.
func TestRefereeMustBeforeReference(t *testing.T) {
	t.Parallel()
	for _, c := range brokenRefereeGateways() {
		t.Run(c.rule, func(t *testing.T) {
			t.Parallel()
			c.opts.Rewrite, c.opts.TurnTimeout = server.EveryFrame(earlierLayout), 10*time.Second
			srv := httptest.NewServer(server.New(c.opts))
			defer srv.Close()
			rep := runLive(t, pyyol.Gateway(), srv.URL, c.rule, gatewaySettings.With("turn-timeout", "10s"))
			if rep.ExitCode() != 1 || !rep.Failed(c.rule) {
				t.Errorf("exit %d; want a fail naming %s; got %v", rep.ExitCode(), c.rule, failedRules(rep))
			}
			if !slices.ContainsFunc(rep.Results, func(r verdict.Result) bool {
				return r.FailedRule == c.rule && strings.Contains(strings.Join(r.Warnings, " "), "PYYOL-REF-FRAMES")
			}) {
				t.Errorf("no check failing %s also lists the PYYOL-REF-FRAMES warning: %v", c.rule, failedRules(rep))
			}
		})
	}
}
