package iyra

import "slices"

// LegalAction is one entry of the legal_actions catalogue: a declared type,
// its parameter domain and the public preconditions an agent must check.
// It is a schema, not a promise the action will be accepted
// (IYRA-LEGAL-CATALOGUE); the parameters map, the preconditions list and the
// name "claim" are the kit's shape (IYRA-LEGAL-SHAPE).
type LegalAction struct {
	Type                string              `json:"type"`
	Parameters          map[string][]string `json:"parameters"`
	PublicPreconditions []string            `json:"public_preconditions"`
	Cost                string              `json:"cost"`
}

// Progress is the progress panel (IYRA-PROGRESS, IYRA-MILESTONES).
type Progress struct {
	Evidence         Gauge    `json:"evidence"`
	Signal           Gauge    `json:"signal"`
	Trust            int      `json:"trust"`
	Allies           []string `json:"allies"`
	Chapter          string   `json:"chapter"`
	Epilogue         string   `json:"epilogue"`
	InspectedSites   []string `json:"inspected_sites"`
	SelectedClaim    string   `json:"selected_claim"`
	CollectedSources []string `json:"collected_sources"`
	StepsUsed        int      `json:"steps_used"`
	StepsRemaining   int      `json:"steps_remaining"`
	Milestones       []string `json:"milestones"`
}

// Gauge is a value against its publication threshold ("evidence / 4").
type Gauge struct {
	Value  int `json:"value"`
	Target int `json:"target"`
}

// View is the public projection of a game: what any session response
// shows. It is built only from public fields (IYRA-VISIBILITY).
type View struct {
	Revision     int           `json:"revision"`
	Status       string        `json:"status"`
	Terminal     bool          `json:"terminal"`
	Outcome      string        `json:"outcome"`
	Score        int           `json:"score"`
	Observation  Observation   `json:"observation"`
	LegalActions []LegalAction `json:"legal_actions"`
	Progress     Progress      `json:"progress"`
}

// View projects the game's public state. The three terminal signals are
// derived from one fact so they cannot disagree (IYRA-TERMINAL-SIGNALS).
// An active view's LegalActions is the shared declared catalogue: read it,
// never modify it.
func (g *Game) View() View {
	v := View{
		Revision: g.revision, Status: StatusActive, Outcome: g.outcome, Score: g.score,
		Observation: g.obs.clone(), LegalActions: declared, Progress: g.progress(),
	}
	if g.Terminal() {
		v.Status, v.Terminal = StatusFinished, true
		v.LegalActions = []LegalAction{} // IYRA-TERMINAL-REJECTS, IYRA-LEGAL-AFTER-END
	}
	return v
}

// declared is the catalogue every active view shares: it is the same in
// every state (IYRA-LEGAL-CATALOGUE), so it is built once instead of per
// answer. It is read-only; Catalogue hands out copies to modify.
var declared = Catalogue()

// DeclaresCatalogue reports whether v lists the declared catalogue itself
// (every active view does), so a server may write the catalogue's bytes
// encoded once instead of encoding it again for every answer.
func (v View) DeclaresCatalogue() bool {
	return len(v.LegalActions) == len(declared) && len(declared) > 0 && &v.LegalActions[0] == &declared[0]
}

// progress builds the progress panel from the public state.
func (g *Game) progress() Progress {
	inspected := make([]string, 0, len(Sites)) // never nil: [] when none
	for _, s := range Sites {
		if flag, _ := g.siteSlots(s); *flag {
			inspected = append(inspected, string(s))
		}
	}
	return Progress{
		Evidence: Gauge{g.obs.Evidence, g.rules.MinEvidence}, Signal: Gauge{g.obs.Signal, g.rules.MinSignal},
		Trust: g.obs.Trust, Allies: slices.Clone(g.obs.Allies), Chapter: g.obs.Chapter, Epilogue: g.obs.Epilogue,
		InspectedSites: inspected, SelectedClaim: g.obs.SelectedClaim,
		CollectedSources: slices.Clone(g.obs.CollectedSources), StepsUsed: g.steps,
		StepsRemaining: g.rules.MaxSteps - g.steps, Milestones: append([]string{}, g.milestones...),
	}
}

// Catalogue returns the declared action catalogue, the same whatever the
// state while the session is active: preconditions are for the agent to
// check (IYRA-LEGAL-CATALOGUE).
func Catalogue() []LegalAction {
	return []LegalAction{
		{Type: TypeAlly, Parameters: map[string][]string{"faction": {string(Keepers), string(Drifters)}},
			PublicPreconditions: []string{"trust >= 2", "faction not already allied"}, Cost: "one action"},
		{Type: TypeBroadcast, Parameters: map[string][]string{},
			PublicPreconditions: []string{"always accepted; truth_released needs a selected claim corroborated by the inspected archive and spire records, evidence >= 4 and signal >= 3"}, Cost: "one action; ends the session"},
		{Type: TypeInvestigate, Parameters: map[string][]string{"site": {string(Archive), string(Harbor), string(Spire)}},
			PublicPreconditions: []string{"site not already inspected"}, Cost: "one action"},
		{Type: TypeWithdraw, Parameters: map[string][]string{},
			PublicPreconditions: []string{"always accepted; ends the session without broadcasting"}, Cost: "one action; ends the session"},
		{Type: TypeSelectClaim, Parameters: map[string][]string{"claim": {string(RelayFault), string(RecordOmission)}},
			PublicPreconditions: []string{"claim differs from selected_claim", "changing an existing claim requires evidence >= 1"}, Cost: "one action; a change also costs one evidence"},
	}
}
