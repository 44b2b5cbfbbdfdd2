// Package bounty is the pure reference engine of agent-puzzle-bounty/1: the
// registration proof of work, the three puzzle types, Shamir shares over
// GF(2^8), the peers board with its exact maximum matching, the solver
// election and the next_move policy, and the rounds, credit and payouts.
// It never touches the network; reference/bounty/server puts HTTP in front.
package bounty
