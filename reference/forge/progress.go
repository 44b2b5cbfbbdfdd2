package forge

// Progress is GET /api/progress: continuous progress and only the current
// unlocked level's public view (FORGE-PROGRESS, FORGE-SESSION-PUBLIC-VIEW).
type Progress struct {
	ChainProgress   int         `json:"chainProgress"`
	CompletedLevels int         `json:"completedLevels"`
	ClearedLevels   int         `json:"clearedLevels"`
	SkippedLevels   int         `json:"skippedLevels"`
	ChainLength     int         `json:"chainLength"`
	AtFrontier      bool        `json:"atFrontier"`
	CurrentLevel    *PublicView `json:"currentLevel"`
}

// Progress returns a's progress after skipping what it may not play.
func (e *Engine) Progress(a *Agent) Progress {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.progress(a)
}

func (e *Engine) progress(a *Agent) Progress {
	e.skip(a)
	p := Progress{ChainProgress: a.Position - 1, CompletedLevels: a.Position - 1, ClearedLevels: a.Cleared,
		SkippedLevels: a.Skipped, ChainLength: len(e.chain)}
	if l := e.current(a); l != nil {
		p.CurrentLevel = l.view()
	} else {
		// FORGE-AT-FRONTIER: nothing left to play.
		p.AtFrontier = true
	}
	return p
}

// skip moves a past levels it authored (FORGE-SELF-AUTHORED-SKIP) and
// disabled levels (FORGE-DISABLED-SKIP): chainProgress advances, skippedLevels
// counts them, clearedLevels does not (FORGE-SKIP-ACCOUNTING,
// FORGE-RANK-NO-SKIP-CREDIT).
func (e *Engine) skip(a *Agent) {
	for a.Position <= len(e.chain) {
		l := e.chain[a.Position-1]
		if l.Enabled && l.AuthorID != a.ID {
			return
		}
		a.Position++
		a.Skipped++
	}
}

// current is a's current unlocked level, nil at the frontier. Nothing
// beyond it is ever shown (FORGE-FUTURE-LOCKED, FORGE-NO-LEVEL-SELECTION).
func (e *Engine) current(a *Agent) *Level {
	if a.Position > len(e.chain) {
		return nil
	}
	return e.chain[a.Position-1]
}
