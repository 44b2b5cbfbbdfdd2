package iyra

import (
	"slices"
	"sort"
	"strings"
)

// Observation is the public state, exactly the fields of
// play.initial_observation plus phase, which execution_contract.terminal
// names (IYRA-OBSERVATION-FIELDS). Nothing private is ever stored here, so
// projecting it cannot leak (IYRA-VISIBILITY).
type Observation struct {
	Chapter          string   `json:"chapter"`
	Trust            int      `json:"trust"`
	Evidence         int      `json:"evidence"`
	Signal           int      `json:"signal"`
	Allies           []string `json:"allies"`
	Ending           string   `json:"ending"`
	Epilogue         string   `json:"epilogue"`
	ArchiveChecked   bool     `json:"archive_checked"`
	HarborChecked    bool     `json:"harbor_checked"`
	SpireChecked     bool     `json:"spire_checked"`
	ArchiveTestimony string   `json:"archive_testimony"`
	HarborTestimony  string   `json:"harbor_testimony"`
	SpireFact        string   `json:"spire_fact"`
	SelectedClaim    string   `json:"selected_claim"`
	CollectedSources []string `json:"collected_sources"`
	Phase            string   `json:"phase"`
}

// clone deep-copies the slices so snapshots never alias live state.
func (o Observation) clone() Observation {
	o.Allies = slices.Clone(o.Allies)
	o.CollectedSources = slices.Clone(o.CollectedSources)
	return o
}

// Game is one session's state. Its zero value is unusable; use NewGame.
type Game struct {
	rules      Rules
	variant    Variant
	epilogues  map[string]string
	obs        Observation
	revision   int
	steps      int
	outcome    string
	score      int
	milestones []string
	log        Log
}

// NewGame starts a session of variant under rules. chainSeed binds the
// replay hash chain to one session (see ChainSeed).
func NewGame(rules Rules, v Variant, epilogues map[string]string, chainSeed string) *Game {
	return &Game{
		rules: rules, variant: v, epilogues: epilogues,
		obs: Observation{
			Chapter: ChapterArrival, Allies: []string{}, CollectedSources: []string{},
			Phase: PhaseInvestigating,
		},
		outcome: InProgress, // IYRA-OUTCOME-IN-PROGRESS; score starts at 0 (IYRA-SCORE-ZERO)
		log:     Log{Seed: chainSeed, Head: chainSeed},
	}
}

// Clone returns an independent copy, for models and what-if checks.
func (g *Game) Clone() *Game {
	c := *g
	c.obs = g.obs.clone()
	c.milestones = slices.Clone(g.milestones)
	c.log.Entries = slices.Clone(g.log.Entries)
	return &c
}

// Variant returns the variant being played.
func (g *Game) Variant() Variant { return g.variant }

// Revision is the number of accepted actions' state changes so far; every
// accepted action increments it by one (IYRA-REVISION-INCREMENT).
func (g *Game) Revision() int { return g.revision }

// Terminal reports whether an ending has been reached.
func (g *Game) Terminal() bool { return g.obs.Ending != "" }

// Submit applies an action submitted at revision rev. A finished session
// rejects every action (IYRA-TERMINAL-REJECTS); a revision other than the
// latest is a conflict (IYRA-REVISION-STALE). Rejections never change state.
func (g *Game) Submit(rev int, a Action) *Rejection {
	if rej := g.Check(rev); rej != nil {
		return rej
	}
	return g.Apply(a)
}

// Check runs the checks that precede any action: the session is open and
// rev is the latest revision.
func (g *Game) Check(rev int) *Rejection {
	if g.Terminal() {
		return reject(Conflict, "session_finished", "IYRA-TERMINAL-REJECTS", "the session has ended (%s); no further actions are accepted", g.obs.Ending)
	}
	if rev != g.revision {
		return reject(Conflict, "stale_revision", "IYRA-REVISION-STALE", "revision %d is not the latest (%d); read the session state", rev, g.revision)
	}
	return nil
}

// Apply applies an action at the current revision. On acceptance it counts
// one step, appends to the replay log and checks the budget.
func (g *Game) Apply(a Action) *Rejection {
	if g.Terminal() {
		return reject(Conflict, "session_finished", "IYRA-TERMINAL-REJECTS", "the session has ended (%s)", g.obs.Ending)
	}
	var rej *Rejection
	switch a.Type {
	case TypeInvestigate:
		rej = g.investigate(Site(a.Site))
	case TypeAlly:
		rej = g.ally(Faction(a.Faction))
	case TypeSelectClaim:
		rej = g.selectClaim(Claim(a.Claim))
	case TypeBroadcast:
		g.broadcast()
	case TypeWithdraw:
		g.withdraw()
	default:
		rej = reject(RuleRejected, "unknown_action", "IYRA-LEGAL-CATALOGUE", "action type %q is not in legal_actions", a.Type)
	}
	if rej != nil {
		if g.rules.RejectionsSpend { // a planted slip of IYRA-BUDGET
			if g.steps++; g.steps >= g.rules.MaxSteps {
				g.finish(BudgetExhausted, Failure)
			}
		}
		return rej
	}
	g.accept(a)
	return nil
}

// accept records an accepted action. Only accepted actions spend the
// budget: the contract caps "accepted actions" (IYRA-BUDGET).
func (g *Game) accept(a Action) {
	g.steps++
	g.revision++
	g.log.append(g.revision, a)
	if g.steps < g.rules.MaxSteps {
		return
	}
	switch {
	case !g.Terminal():
		g.finish(BudgetExhausted, Failure) // IYRA-BUDGET: epilogue stays empty
	case g.rules.BudgetOverridesEnding:
		// The other reading of IYRA-BUDGET-LAST-ACTION: the budget's ending
		// replaces the ninth action's own, with its empty epilogue and no score (IYRA-SCORE-UNVERIFIED).
		g.obs.Epilogue, g.score = "", 0
		g.finish(BudgetExhausted, Failure)
	}
}

// Expire ends a session still open with budget_exhausted because its
// max_duration_seconds have passed, without spending a step or writing the
// replay log (IYRA-DURATION-LIMIT). It reports whether the session ended.
func (g *Game) Expire() bool {
	if g.Terminal() {
		return false
	}
	g.finish(BudgetExhausted, Failure)
	return true
}

// MaxDuration returns the session's time limit in seconds, 0 for none
// (IYRA-DURATION-LIMIT).
func (g *Game) MaxDuration() int { return g.rules.MaxDurationSeconds }

// investigate inspects a site once (IYRA-SITE-ONCE), applies its effect
// (IYRA-SITE-EFFECTS), reveals its fixed public fact (IYRA-SITE-REVEAL) and
// returns the chapter to inquiry (IYRA-CHAPTER-INQUIRY).
func (g *Game) investigate(s Site) *Rejection {
	eff, ok := g.rules.Effects[s]
	if !ok {
		return reject(RuleRejected, "invalid_parameter", "IYRA-LEGAL-CATALOGUE", "unknown site %q", s)
	}
	flag, text := g.siteSlots(s)
	if *flag && (!g.rules.RepeatAfterAnother || g.lastInspected(s)) { // RepeatAfterAnother: a planted slip
		return reject(RuleRejected, "site_already_inspected", "IYRA-SITE-ONCE", "%s was already inspected", s)
	}
	*flag = true
	*text = g.siteFact(s)
	g.obs.Evidence += eff.Evidence
	g.obs.Trust += eff.Trust
	g.obs.Signal += eff.Signal
	g.obs.CollectedSources = append(g.obs.CollectedSources, string(s)) // one entry per inspection (IYRA-SITE-REVEAL), named by its site id (IYRA-COLLECTED-SOURCE-IDS)
	g.obs.Chapter = ChapterInquiry
	g.milestone(MilestoneFirstLead)
	return nil
}

// lastInspected reports whether the last accepted action inspected s
// (the planted slip RepeatAfterAnother remembers no more).
func (g *Game) lastInspected(s Site) bool {
	return g.lastWas(Action{Type: TypeInvestigate, Site: string(s)})
}

// lastAllied reports whether the last accepted action recruited f (the
// planted slip RecruitAfterAnother remembers no more).
func (g *Game) lastAllied(f Faction) bool {
	return g.lastWas(Action{Type: TypeAlly, Faction: string(f)})
}

// firstClaim is the first claim the session selected, "" before any (the
// planted slip SameAgainstFirst compares against it).
func (g *Game) firstClaim() Claim {
	for _, e := range g.log.Entries {
		if e.Action.Type == TypeSelectClaim {
			return Claim(e.Action.Claim)
		}
	}
	return ""
}

// lastWas reports whether the last accepted action was a.
func (g *Game) lastWas(a Action) bool {
	n := len(g.log.Entries)
	return n > 0 && g.log.Entries[n-1].Action == a
}

// siteSlots returns the public flag and text field a site fills.
func (g *Game) siteSlots(s Site) (*bool, *string) {
	switch s {
	case Archive:
		return &g.obs.ArchiveChecked, &g.obs.ArchiveTestimony
	case Harbor:
		return &g.obs.HarborChecked, &g.obs.HarborTestimony
	default:
		return &g.obs.SpireChecked, &g.obs.SpireFact
	}
}

// siteFact is the authored public account a site reveals; it comes from
// the variant's public texts only, never from truth or field notes
// (IYRA-VISIBILITY), and is the same in every session of the variant
// (IYRA-SITE-FACTS-FIXED).
func (g *Game) siteFact(s Site) string {
	switch s {
	case Archive:
		return g.variant.ArchiveTestimony
	case Harbor:
		return g.variant.HarborTestimony
	default:
		return g.variant.SpireFact
	}
}

// ally adds a faction to the coalition set once (IYRA-ALLY-REPEAT,
// IYRA-ALLY-SET), gated on trust (IYRA-ALLY-TRUST), for the same signal
// whichever faction (IYRA-ALLY-SIGNAL, IYRA-FACTION-PARITY).
func (g *Game) ally(f Faction) *Rejection {
	if f != Keepers && f != Drifters {
		return reject(RuleRejected, "invalid_parameter", "IYRA-LEGAL-CATALOGUE", "unknown faction %q", f)
	}
	again := slices.Contains(g.obs.Allies, string(f))
	if again && (!g.rules.RecruitAfterAnother || g.lastAllied(f)) { // RecruitAfterAnother: a planted slip
		return reject(RuleRejected, "faction_already_allied", "IYRA-ALLY-REPEAT", "%s are already allies", f)
	}
	gate := g.obs.Trust
	if g.rules.AllyGateOnEvidence { // a planted slip of IYRA-ALLY-TRUST
		gate = g.obs.Evidence
	}
	if gate < g.rules.AllyMinTrust {
		return reject(RuleRejected, "insufficient_trust", "IYRA-ALLY-TRUST", "ally requires trust >= %d (trust is %d)", g.rules.AllyMinTrust, g.obs.Trust)
	}
	if !again {
		g.obs.Allies = append(g.obs.Allies, string(f))
		sort.Strings(g.obs.Allies)
	}
	g.obs.Signal += g.rules.AllySignal
	g.obs.Chapter = ChapterCoalition // the latest activity, no longer inquiry (IYRA-CHAPTER-LATEST)
	g.milestone(MilestoneCoalitionFormed)
	return nil
}

// selectClaim selects or changes the claim, only ever on the caller's
// explicit request (IYRA-CLAIM-EXPLICIT): the first selection costs only
// the action (IYRA-CLAIM-FIRST), a change also costs evidence and needs
// enough of it (IYRA-CLAIM-CHANGE), the same claim is rejected
// (IYRA-CLAIM-SAME).
func (g *Game) selectClaim(c Claim) *Rejection {
	if c != RelayFault && c != RecordOmission {
		return reject(RuleRejected, "invalid_parameter", "IYRA-LEGAL-CATALOGUE", "unknown claim %q", c)
	}
	same := g.obs.SelectedClaim == string(c)
	if g.rules.SameAgainstFirst { // a planted slip
		same = g.firstClaim() == c
	}
	switch {
	case same:
		return reject(RuleRejected, "claim_already_selected", "IYRA-CLAIM-SAME", "%s is already the selected claim", c)
	case g.obs.SelectedClaim != "" && g.obs.Evidence < g.rules.ChangeCost && !g.rules.ChangeUngated: // ChangeUngated: a planted slip
		return reject(RuleRejected, "insufficient_evidence", "IYRA-CLAIM-CHANGE", "changing claims requires evidence >= %d", g.rules.ChangeCost)
	case g.obs.SelectedClaim != "":
		g.obs.Evidence -= g.rules.ChangeCost
	}
	g.obs.SelectedClaim = string(c)
	g.obs.Chapter = ChapterDeliberation
	return nil
}

// Corroborated reports whether the selected claim is corroborated: both
// Archive and Spire inspected and their records match the claim's
// predictions (IYRA-CLAIM-CORROBORATION). Harbor testimony never counts.
func (g *Game) Corroborated() bool {
	o := g.obs
	return o.SelectedClaim != "" && o.ArchiveChecked && o.SpireChecked && g.variant.Supports(Claim(o.SelectedClaim))
}

// broadcast is always accepted (IYRA-BROADCAST-ACCEPTED) and ends the
// session: truth_released only with a corroborated claim and enough
// evidence and signal (IYRA-ENDING-SUCCESS), else unverified_broadcast
// (IYRA-ENDING-UNVERIFIED).
func (g *Game) broadcast() {
	g.obs.Chapter = ChapterBroadcast
	g.milestone(MilestoneBroadcastDecision)
	if g.Corroborated() && g.obs.Evidence >= g.rules.MinEvidence && g.obs.Signal >= g.rules.MinSignal {
		g.finish(TruthReleased, Success)
		g.score = g.obs.Evidence // IYRA-SCORE
		return
	}
	g.finish(UnverifiedBroadcast, Failure)
}

// withdraw ends the session without broadcasting: a draw (IYRA-WITHDRAW).
func (g *Game) withdraw() {
	g.obs.Chapter = ChapterWithdrawal
	g.milestone(MilestoneBroadcastDecision)
	g.finish(Withdrawn, Draw)
}

// finish sets the ending, the three terminal signals (IYRA-TERMINAL-SIGNALS),
// the outcome the objective names for it (IYRA-OUTCOME) and, for broadcast
// and withdrawal endings only, the epilogue (IYRA-EPILOGUE), written at every such ending (IYRA-EPILOGUE-SET).
func (g *Game) finish(ending, outcome string) {
	g.obs.Ending = ending
	g.obs.Phase = PhaseFinished
	g.outcome = outcome
	if ending != BudgetExhausted {
		g.obs.Epilogue = g.epilogue(ending)
	}
}

// epilogue composes the author-declared public ending; a verified ending
// adds each ally's declared publication consequence
// (IYRA-FACTION-CONSEQUENCE), its only difference between the factions.
func (g *Game) epilogue(ending string) string {
	parts := []string{g.epilogues[ending]}
	if ending == TruthReleased {
		for _, f := range g.obs.Allies {
			parts = append(parts, g.epilogues[f])
		}
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

// milestone records m once, in the order reached (IYRA-MILESTONES).
func (g *Game) milestone(m string) {
	if !slices.Contains(g.milestones, m) {
		g.milestones = append(g.milestones, m)
	}
}
