package bounty

import "strconv"

// houseAgents are the operator's reference agents: "The operator runs
// reference agents marked house=true on every surface."
const houseAgents = K

// HouseWin closes the live round as won by the operator's house coalition,
// which is how a round rotates in the middle of play on a live platform:
// another coalition combined first. Its k agents solve k shares of the
// round (credited as any solve, BOUNTY-CREDIT) and win it, and the next
// round opens at once (BOUNTY-ROTATION); every round-bound call on the
// closed challenge then answers 410 (BOUNTY-STALE-410). serve --faults
// brings it about; it returns the challenge it closed.
func (e *Engine) HouseWin() string {
	defer e.lock()()
	r := e.live()
	ids := make([]string, 0, houseAgents)
	for i := 1; i <= houseAgents; i++ {
		id := "agent-house" + strconv.Itoa(i)
		a := e.agents[id]
		if a == nil {
			a = &Agent{ID: id, Secret: "sk-" + e.hexID(16), Name: "house-" + strconv.Itoa(i), House: true,
				RegisteredRound: r.Number, PlayedRounds: map[int]bool{}}
			e.agents[id] = a
		}
		if e.credit(r, a, i) {
			r.stats.SolvesAccepted++
		}
		ids = append(ids, id)
	}
	r.stats.CombineAttempts++
	e.win(r, ids)
	return r.ChallengeID
}
