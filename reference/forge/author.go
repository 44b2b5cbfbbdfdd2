package forge

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/agentgames/conformance/reference/forge/authoring"
)

// Publication is the answer to an accepted package.
type Publication struct {
	LevelID     string    `json:"levelId"`
	Position    int       `json:"position"`
	Author      string    `json:"author"`
	PublishedAt time.Time `json:"publishedAt"`
}

type idempotent struct {
	canonical []byte
	pub       Publication
}

// ValidKey reports whether an Idempotency-Key is 8 to 128 printable ASCII
// characters (FORGE-IDEMPOTENCY-KEY-FORMAT).
func ValidKey(key string) bool {
	if len(key) < 8 || len(key) > 128 {
		return false
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x20 || key[i] > 0x7e {
			return false
		}
	}
	return true
}

// Append validates a package and appends it at the tail. Any active
// authenticated agent may author (FORGE-AUTHOR-ELIGIBILITY). The key is
// scoped to the agent (FORGE-IDEMPOTENCY-SCOPE): the same key and the same
// normalized body return the original publication without an append
// (FORGE-IDEMPOTENT-REPLAY), another body is 409 IDEMPOTENCY_KEY_REUSED
// (FORGE-IDEMPOTENCY-REUSED); bodies are compared as canonical JSON, so key
// order and whitespace do not count (FORGE-REF-IDEMPOTENCY-NORMALIZED).
// Only an accepted package binds the key
// (FORGE-REF-IDEMPOTENCY-REJECTED). replay tells which case answered.
func (e *Engine) Append(a *Agent, key string, body []byte) (pub Publication, replay bool, err error) {
	if !ValidKey(key) {
		return Publication{}, false, fail(400, "INVALID_IDEMPOTENCY_KEY", "Idempotency-Key must be 8 to 128 printable ASCII characters")
	}
	if perr := authoring.Prescan(body); perr != nil {
		return Publication{}, false, e.refusedEarly(a, key, perr)
	}
	n, nerr := authoring.Normalize(body)
	if nerr != nil {
		return Publication{}, false, validationError(nerr)
	}
	e.mu.Lock()
	prev, seen := e.keys[a.ID+"\x00"+key]
	e.mu.Unlock()
	if seen {
		if bytes.Equal(prev.canonical, n.Canonical) {
			return prev.pub, true, nil
		}
		return Publication{}, false, fail(409, "IDEMPOTENCY_KEY_REUSED", "this Idempotency-Key was used with another body")
	}
	p, verr := authoring.Validator{Dialect: e.dialect}.Validate(n)
	if verr != nil {
		return Publication{}, false, validationError(verr)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if prev, seen := e.keys[a.ID+"\x00"+key]; seen { // a concurrent retry won
		if bytes.Equal(prev.canonical, n.Canonical) {
			return prev.pub, true, nil
		}
		return Publication{}, false, fail(409, "IDEMPOTENCY_KEY_REUSED", "this Idempotency-Key was used with another body")
	}
	if derr := e.duplicate(p, n); derr != nil {
		return Publication{}, false, derr
	}
	l := e.appendLevel(p, n, a.ID)
	pub = Publication{LevelID: l.ID, Position: l.Position, Author: a.Name, PublishedAt: l.Published}
	e.keys[a.ID+"\x00"+key] = &idempotent{canonical: n.Canonical, pub: pub}
	return pub, false, nil
}

// refusedEarly answers a package Prescan refused: its body cannot equal
// one published under key (that one kept the bounds), so a key this agent
// already used is reused with another body (409, FORGE-IDEMPOTENCY-REUSED),
// as the full path would answer; any other key gets the schema's 422.
// Nothing is recorded either way.
func (e *Engine) refusedEarly(a *Agent, key string, perr error) *Error {
	e.mu.Lock()
	_, seen := e.keys[a.ID+"\x00"+key]
	e.mu.Unlock()
	if seen {
		return fail(409, "IDEMPOTENCY_KEY_REUSED", "this Idempotency-Key was used with another body")
	}
	return validationError(perr)
}

// duplicate refuses a published id (FORGE-ID-NOT-OVERWRITTEN) and a
// published content under a new id (FORGE-NO-DUPLICATE-NEW-ID,
// FORGE-VALID-DUPLICATE); a repair is a new id at the tail
// (FORGE-REPAIR-APPENDS).
func (e *Engine) duplicate(p *authoring.Package, n *authoring.Normalized) *Error {
	for _, l := range e.chain {
		switch {
		case l.ID == p.ID:
			return fail(409, authoring.CodeDuplicateID, "level id %q is published", p.ID)
		case l.Fingerprint == n.Fingerprint:
			return fail(409, authoring.CodeDuplicate, "the same content is published at position %d", l.Position)
		}
	}
	return nil
}

func validationError(err error) *Error {
	r, ok := err.(*authoring.Rejection)
	if !ok {
		return fail(422, authoring.CodeSchema, "%v", err)
	}
	return &Error{Status: 422, Code: r.Code, Message: r.Message}
}

func mustJSON(v any) json.RawMessage {
	raw, _ := json.Marshal(v)
	return raw
}
