package server

import "time"

// acceptGrace is how long past its challenge's expiry an acceptance is
// kept: long enough that a late verify still gets the precise
// challenge_expired answer (IYRA-PROOF-EXPIRY), short enough that a client
// accepting in a loop cannot grow the server without bound.
const acceptGrace = time.Hour

// sweepAccepts forgets every challenge that expired more than acceptGrace
// ago, with its agent when that agent never verified. Challenges are
// issued with one TTL, so they expire in the order of s.pending and the
// sweep stops at the first live one: each acceptance is swept once.
// Callers hold s.mu.
func (s *Server) sweepAccepts(now time.Time) {
	for len(s.pending) > 0 {
		c, ok := s.chals[s.pending[0]]
		if ok && now.Before(c.expires.Add(acceptGrace)) {
			return
		}
		s.pending = s.pending[1:]
		if !ok {
			continue
		}
		delete(s.chals, c.id)
		if a := s.agents[c.agentID]; a != nil && !a.verified {
			delete(s.agents, a.id)
		}
	}
}
