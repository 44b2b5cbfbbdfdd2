package iyra

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// ChainAlgorithm names the replay integrity scheme (IYRA-REPLAY-INTEGRITY,
// a REFERENCE choice): a SHA-256 hash chain seeded by the session and
// version, each link hashing the previous digest, the entry's revision and
// the action's canonical JSON.
const ChainAlgorithm = "sha256-chain-v1"

// ChainSeed is the chain's first link for one session of one version.
func ChainSeed(sessionID, versionID string) string {
	return hashHex("iyra-replay|" + sessionID + "|" + versionID)
}

// ChainNext links one accepted action onto prev.
func ChainNext(prev string, revision int, a Action) string {
	return hashHex(prev + "|" + strconv.Itoa(revision) + "|" + string(a.Canonical()))
}

// hashHex is the lower-case hex SHA-256 of s.
func hashHex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Entry is one accepted action in the replay log.
type Entry struct {
	Revision int    `json:"revision"`
	Action   Action `json:"action"`
	Digest   string `json:"digest"`
}

// Log is the append-only list of accepted actions with its chain head.
type Log struct {
	Seed    string
	Head    string
	Entries []Entry
}

// append links one accepted action onto the chain.
func (l *Log) append(revision int, a Action) {
	l.Head = ChainNext(l.Head, revision, a)
	l.Entries = append(l.Entries, Entry{Revision: revision, Action: a, Digest: l.Head})
}

// VerifyChain recomputes the chain over entries from seed and reports
// whether every digest and the final head match.
func VerifyChain(seed string, entries []Entry, head string) bool {
	cur := seed
	for i, e := range entries {
		if e.Revision != i+1 {
			return false
		}
		cur = ChainNext(cur, e.Revision, e.Action)
		if cur != e.Digest {
			return false
		}
	}
	return cur == head
}

// Integrity is the replay's integrity block.
type Integrity struct {
	Verified  bool   `json:"verified"`
	Algorithm string `json:"algorithm"`
	Seed      string `json:"seed"`
	Head      string `json:"head"`
}

// PersonalBest holds this run's values of the contract's
// personal_best_dimensions (IYRA-PERSONAL-BEST).
type PersonalBest struct {
	Evidence int    `json:"evidence"`
	Allies   int    `json:"allies"`
	Steps    int    `json:"steps"`
	Ending   string `json:"ending"`
}

// Replay is the engine's part of a replay document: the public outcome,
// the accepted actions with their chain, and nothing private
// (IYRA-REPLAY, IYRA-VISIBILITY).
type Replay struct {
	Variant          string       `json:"variant"`
	Outcome          string       `json:"outcome"`
	Ending           string       `json:"ending"`
	Score            int          `json:"score"`
	Steps            int          `json:"steps"`
	Actions          []Entry      `json:"actions"`
	Integrity        Integrity    `json:"integrity"`
	FinalObservation Observation  `json:"final_observation"`
	Milestones       []string     `json:"milestones"`
	PersonalBest     PersonalBest `json:"personal_best_dimensions"`
}

// Replay builds the replay, re-verifying the chain rather than trusting the
// stored head, so a corrupted log reports verified=false.
func (g *Game) Replay() Replay {
	entries := append([]Entry{}, g.log.Entries...)
	return Replay{
		Variant: g.variant.ID, Outcome: g.outcome, Ending: g.obs.Ending, Score: g.score, Steps: g.steps,
		Actions: entries,
		Integrity: Integrity{
			Verified:  VerifyChain(g.log.Seed, entries, g.log.Head),
			Algorithm: ChainAlgorithm, Seed: g.log.Seed, Head: g.log.Head,
		},
		FinalObservation: g.obs.clone(), Milestones: append([]string{}, g.milestones...),
		PersonalBest: PersonalBest{Evidence: g.obs.Evidence, Allies: len(g.obs.Allies), Steps: g.steps, Ending: g.obs.Ending},
	}
}
