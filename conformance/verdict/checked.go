package verdict

import (
	"fmt"
	"strings"
)

// Decided returns the rules on which at least one check reached a verdict
// (pass, fail or warn), with the folded status of those verdicts. A rule
// whose every check was skipped or errored is not in it: nothing was
// judged, however many checks cite it. A rule a check stopped short of,
// failing on another rule, counts with that check's status (Result.Verdicts),
// as the rule views show it.
func (r *Report) Decided() map[string]Status {
	out := map[string]Status{}
	levels := r.Levels()
	for _, res := range r.Results {
		for id, st := range res.Verdicts() {
			if st != Pass && st != Fail && st != Warn {
				continue
			}
			st = AtLevel(levels, id, st)
			if prev, ok := out[id]; ok {
				st = Worse(prev, st)
			}
			out[id] = st
		}
	}
	return out
}

// uncited starts the reason of a MUST rule no selected check cites.
const uncited = "no selected check cites it"

// Unchecked is a MUST rule no check decided on this target, and why.
type Unchecked struct {
	Rule   string `json:"rule"`
	Title  string `json:"title"`
	Reason string `json:"reason"`
}

// MustCoverage counts the MUST rules of p on which some check reached pass
// or fail (Result.Verdicts, as Decided; a failure a baseline expects
// counts), and lists the others with the reason: an error
// or else a skip of a check that cites the rule (the first in text order,
// outranks), a run-level harness error, or that no selected check cites it.
func (r *Report) MustCoverage(p ProtocolInfo) (checked, total int, unchecked []Unchecked) {
	decided := map[string]bool{}
	reasons := map[string]string{}
	for _, res := range r.Results {
		if res.Protocol != p.Name {
			continue
		}
		for id, st := range res.Verdicts() {
			// A failure --baseline expects was judged all the same: it
			// failed, and the baseline made it a warning.
			if st == Pass || st == Fail || (res.Baseline != nil && id == res.FailedRule) {
				decided[id] = true
				continue
			}
			if r := reasonOf(res, st); outranks(r, reasons[id]) {
				reasons[id] = r
			}
		}
	}
	for _, rule := range p.Rules {
		if rule.Level != Must {
			continue
		}
		total++
		if decided[rule.ID] {
			checked++
			continue
		}
		reason := reasons[rule.ID]
		switch {
		case reason != "":
		case wrongTarget(r, p) != "":
			reason = "not run: " + wrongTarget(r, p)
		case len(r.Errors) > 0:
			reason = "not run: " + r.Errors[0]
		default:
			reason = uncited + " (see --tags, --rule, --checks)"
		}
		unchecked = append(unchecked, Unchecked{Rule: rule.ID, Title: rule.Title, Reason: reason})
	}
	return checked, total, unchecked
}

// wrongTarget is the preflight's finding that the target is not p at all
// (NotProtocol, which names p by its title), or "": its checks never ran,
// so its MUST rules are not run, not merely left unselected.
func wrongTarget(r *Report, p ProtocolInfo) string {
	for _, e := range r.NotProtocol {
		if p.Title != "" && strings.Contains(e, "does not look like "+p.Title+":") {
			return e
		}
	}
	return ""
}

// outranks reports whether reason r should replace the one kept, have: an
// error before a skip, then the first in text order, so the reason does not
// depend on the order of the results (a merge of shards lists them shard by
// shard) and the merged report names the unsharded one's.
func outranks(r, have string) bool {
	rErr, haveErr := strings.HasPrefix(r, "error"), strings.HasPrefix(have, "error")
	switch {
	case have == "":
		return true
	case rErr != haveErr:
		return rErr
	}
	return r < have
}

// reasonOf says why a check reached no verdict on a rule.
func reasonOf(res Result, st Status) string {
	msg := strings.TrimSpace(res.Message)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if msg == "" {
		msg = "no message"
	}
	return string(st) + ": " + msg + " (" + res.Name + ")"
}

// NothingChecked names, per protocol, a run that checked nothing: its
// checks cite MUST rules, yet none of them reached pass or fail on this
// target (every such check skipped or errored: a target that never
// answered in the protocol's shape, a responder without the surface the
// checks need, a spent budget). Such a run proves nothing, so it exits 2
// however many SHOULD or REFERENCE notes it made. A selection of SHOULD or
// REFERENCE rules only (--rule) is not held to it. Computed from the
// results, so a merge of shards judges the whole run.
func (r *Report) NothingChecked() []string {
	var out []string
	for _, p := range r.Protocols {
		if !r.citesMust(p) {
			continue
		}
		checked, total, unchecked := r.MustCoverage(p)
		if checked > 0 || total == 0 {
			continue
		}
		why := ""
		for _, u := range unchecked {
			if !strings.HasPrefix(u.Reason, uncited) {
				why = " (" + u.Rule + ": " + u.Reason + ")"
				break
			}
		}
		out = append(out, fmt.Sprintf("%s: none of its %d MUST rules reached a verdict on this target, so nothing was checked%s",
			p.Name, total, why))
	}
	return out
}

// citesMust reports whether any result of p cites one of p's MUST rules.
func (r *Report) citesMust(p ProtocolInfo) bool {
	must := map[string]bool{}
	for _, rule := range p.Rules {
		must[rule.ID] = rule.Level == Must
	}
	for _, res := range r.Results {
		if res.Protocol != p.Name {
			continue
		}
		for id := range res.RuleStatuses() {
			if must[id] {
				return true
			}
		}
	}
	return false
}
