package iyra

import (
	"slices"
	"sort"

	"github.com/agentgames/conformance/reference/iyra"
)

// sorted returns a sorted copy, so set-valued fields compare by content.
func sorted(s []string) []string {
	out := slices.Clone(s)
	sort.Strings(out)
	return out
}

// ruleOr names the rule a divergence breaks: the rejecting rule after a
// rejection, which promises an unchanged state, else rule.
func ruleOr(c change, rule string) string {
	if c.rej != nil {
		return c.rej.Rule
	}
	return rule
}

// resourceRule names the rule that sets resource deltas for an action type.
func resourceRule(c change) string {
	switch c.a.Type {
	case iyra.TypeInvestigate:
		return ruleOr(c, "IYRA-SITE-EFFECTS")
	case iyra.TypeAlly:
		return ruleOr(c, "IYRA-ALLY-SIGNAL")
	case iyra.TypeSelectClaim:
		return claimRule(c)
	}
	return ruleOr(c, "IYRA-BROADCAST-ACCEPTED")
}

// claimRule names the rule of a selected_claim divergence: a claim that
// appears without a selection is inferred (IYRA-CLAIM-EXPLICIT); otherwise
// a first selection (IYRA-CLAIM-FIRST) or a change (IYRA-CLAIM-CHANGE).
func claimRule(c change) string {
	switch {
	case c.rej != nil:
		return c.rej.Rule
	case c.a.Type != iyra.TypeSelectClaim:
		return "IYRA-CLAIM-EXPLICIT"
	case c.firstSelection:
		return "IYRA-CLAIM-FIRST"
	}
	return "IYRA-CLAIM-CHANGE"
}

// endingRule names the rule deciding an ending.
func endingRule(ending string, a iyra.Action) string {
	switch ending {
	case iyra.TruthReleased:
		return "IYRA-ENDING-SUCCESS"
	case iyra.UnverifiedBroadcast:
		return "IYRA-ENDING-UNVERIFIED"
	case iyra.Withdrawn:
		return "IYRA-WITHDRAW"
	case iyra.BudgetExhausted:
		return "IYRA-BUDGET"
	}
	if a.Type == iyra.TypeBroadcast {
		return "IYRA-BROADCAST-ACCEPTED"
	}
	return "IYRA-BUDGET"
}
