package server

import "slices"

// gamePlayer plays one practice match of a game other than Goofspiel on
// the agent's seat; false means the match wedged and the agent's practice
// stops.
type gamePlayer func(g *Gateway, agentID string, reg Frame) bool

// otherGames is the registry of the games beside Goofspiel, by the name
// an agent lists in register.games; each game's file adds itself in init.
var otherGames = map[string]gamePlayer{}

// registerGame adds a game to the registry.
func registerGame(name string, play gamePlayer) { otherGames[name] = play }

// otherGame is the first game of games the registry holds, or nil.
func otherGame(games []string) gamePlayer {
	for _, name := range games {
		if play, ok := otherGames[name]; ok {
			return play
		}
	}
	return nil
}

// startOther starts practice matches of a registered game for an agent
// that did not ask for Goofspiel; false when it asked for none the
// registry holds. The caller holds g.mu.
func (g *Gateway) startOther(agentID string, reg Frame) bool {
	if slices.Contains(reg.Games, "goofspiel") {
		return false
	}
	play := otherGame(reg.Games)
	if play == nil {
		return false
	}
	g.playing[agentID] = true
	go g.practiceOther(agentID, reg, play)
	return true
}

// practiceOther plays the matches a registration asked for, then forgets
// the agent so a later registration starts new ones.
func (g *Gateway) practiceOther(agentID string, reg Frame, play gamePlayer) {
	defer func() {
		g.mu.Lock()
		delete(g.playing, agentID)
		g.mu.Unlock()
	}()
	for i := 0; i < min(max(reg.Matches, 1), maxMatches); i++ {
		if !play(g, agentID, reg) {
			return
		}
	}
}
