package iyra

// Effect is a resource change.
type Effect struct {
	Evidence int `json:"evidence"`
	Trust    int `json:"trust"`
	Signal   int `json:"signal"`
}

// Rules are the numbers of the release. They are a value (not constants) so
// tests can build deliberately broken reference servers, each breaking one
// rule, and prove the runner catches them.
type Rules struct {
	// Effects per site: IYRA-SITE-EFFECTS.
	Effects map[Site]Effect
	// AllyMinTrust gates alliances: IYRA-ALLY-TRUST.
	AllyMinTrust int
	// AllySignal is the signal an alliance gives: IYRA-ALLY-SIGNAL.
	AllySignal int
	// MaxSteps is the accepted-action budget: IYRA-BUDGET.
	MaxSteps int
	// MinEvidence and MinSignal gate a verified broadcast: IYRA-ENDING-SUCCESS.
	MinEvidence int
	MinSignal   int
	// ChangeCost is the evidence a claim change costs: IYRA-CLAIM-CHANGE.
	ChangeCost int
	// MaxDurationSeconds ends a session that long after its creation
	// (IYRA-DURATION-LIMIT); 0 means no limit. The engine has no clock: the
	// server measures the time and calls Game.Expire.
	MaxDurationSeconds int
	// BudgetOverridesEnding makes a ninth accepted action that broadcasts or
	// withdraws end budget_exhausted instead of its own ending. The kit's
	// choice is false (IYRA-BUDGET-LAST-ACTION); the runner's lockstep model
	// also plays the other reading so that a target making it only warns.
	BudgetOverridesEnding bool
	// ChangeUngated, RejectionsSpend, AllyGateOnEvidence,
	// RepeatAfterAnother, RecruitAfterAnother and SameAgainstFirst are
	// planted slips of the kit's third Iyra
	// detection round (docs/detection.md), false in DefaultRules: a claim
	// change let through whatever the evidence, so evidence goes below
	// zero (IYRA-CLAIM-CHANGE), rejected actions counted against the
	// 9-step budget (IYRA-BUDGET), the alliance gate compared against
	// evidence instead of trust (IYRA-ALLY-TRUST), and a repeat inspection
	// refused only when the last accepted action inspected the same site,
	// so a site inspected again after another one applies its effect twice
	// (IYRA-SITE-ONCE), and a faction's repeat recruitment refused only
	// right after it, so a second one after another faction's adds signal
	// again (IYRA-ALLY-REPEAT), and the same-claim refusal compared
	// against the first selection instead of the current claim
	// (IYRA-CLAIM-SAME).
	ChangeUngated       bool
	RejectionsSpend     bool
	AllyGateOnEvidence  bool
	RepeatAfterAnother  bool
	RecruitAfterAnother bool
	SameAgainstFirst    bool
}

// DefaultRules are the rules of version xgv_e3baba90b92558c7b5d8d598.
func DefaultRules() Rules {
	return Rules{
		Effects: map[Site]Effect{
			Archive: {Evidence: 2, Signal: 1}, // IYRA-SITE-EFFECTS
			Harbor:  {Evidence: 2, Trust: 2},  // IYRA-SITE-EFFECTS
			Spire:   {Evidence: 1, Signal: 2}, // IYRA-SITE-EFFECTS
		},
		AllyMinTrust: 2, // IYRA-ALLY-TRUST
		AllySignal:   1, // IYRA-ALLY-SIGNAL
		MaxSteps:     9, // IYRA-BUDGET
		MinEvidence:  4, // IYRA-ENDING-SUCCESS
		MinSignal:    3, // IYRA-ENDING-SUCCESS
		ChangeCost:   1, // IYRA-CLAIM-CHANGE
		// IYRA-LIMITS, IYRA-DURATION-LIMIT
		MaxDurationSeconds: 180,
	}
}

// The endings (IYRA-REASON-CODES).
const (
	TruthReleased       = "truth_released"
	UnverifiedBroadcast = "unverified_broadcast"
	Withdrawn           = "withdrawn"
	BudgetExhausted     = "budget_exhausted"
)

// The outcomes a terminal session reports (IYRA-OUTCOME).
const (
	InProgress = "in_progress"
	Success    = "success"
	Failure    = "failure"
	Draw       = "draw"
)

// The chapters (IYRA-CHAPTER-NAMES, a REFERENCE choice except "inquiry",
// which the contract names).
const (
	ChapterArrival      = "arrival"
	ChapterInquiry      = "inquiry"
	ChapterCoalition    = "coalition"
	ChapterDeliberation = "deliberation"
	ChapterBroadcast    = "broadcast"
	ChapterWithdrawal   = "withdrawal"
)

// The phases of observation.phase (IYRA-TERMINAL-SIGNALS).
const (
	PhaseInvestigating = "investigating"
	PhaseFinished      = "finished"
)

// The statuses of a session (IYRA-TERMINAL-SIGNALS).
const (
	StatusActive   = "active"
	StatusFinished = "finished"
)

// The milestones (IYRA-MILESTONES).
const (
	MilestoneFirstLead         = "first_lead"
	MilestoneCoalitionFormed   = "coalition_formed"
	MilestoneBroadcastDecision = "broadcast_decision"
)

// The action types of play.legal_actions.
const (
	TypeInvestigate = "investigate"
	TypeAlly        = "ally"
	TypeSelectClaim = "select_claim"
	TypeBroadcast   = "broadcast"
	TypeWithdraw    = "withdraw"
)

// ActionTypes lists the declared action types in the contract's order.
var ActionTypes = []string{TypeAlly, TypeBroadcast, TypeInvestigate, TypeWithdraw, TypeSelectClaim}
