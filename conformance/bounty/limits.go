package bounty

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"

	"github.com/agentgames/conformance/conformance/verdict"
)

// nameTries bounds the fresh names a boundary probe tries: a short name
// may be taken on a deployment where many runs have played.
const nameTries = 5

// nameOf is a name of exactly n lower-case letters (the plainest name any
// deployment takes), random so that a probe rarely meets a name already
// taken.
func nameOf(n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz"
	var b strings.Builder
	for range n {
		b.WriteByte(alphabet[rand.IntN(len(alphabet))])
	}
	return b.String()
}

// takeNameOfLength: member i takes a fresh name of exactly n characters,
// accepted at the documented limits 2 and 32 ("optional, 2-32 chars,
// unique"); a refusal of every one of a few random names fails the
// scenario's rule (one refusal may be a name someone already holds).
func (w *world) takeNameOfLength(ctx context.Context, i, n int) error {
	for range nameTries {
		name := nameOf(n)
		if err := w.editName(ctx, i, name); err != nil {
			return err
		}
		if w.Last.Status/100 == 2 {
			w.names[i] = name
			return w.takeWideName(ctx, i, n)
		}
	}
	return verdict.Failf(w.rule, fmt.Sprintf("2xx for a fresh name of %d characters", n), w.Last.Status, "%d random names tried: %s", nameTries, w.clip(w.Last.Body))
}

// wideLetters pad a name with letters of two and four UTF-8 bytes (one
// and two UTF-16 units): 'é' and Deseret '𐐷'.
var wideLetters = []rune{'é', '𐐷'}

// wideNameOf is a name of exactly n characters, the first half lower-case
// letters and the rest wideLetters in turn: past n bytes and n UTF-16
// units once n > 2.
func wideNameOf(n int) string {
	b := []rune(nameOf(n - n/2))
	for j := range n / 2 {
		b = append(b, wideLetters[j%len(wideLetters)])
	}
	return string(b)
}

// takeWideName holds the limit to characters (BOUNTY-PROFILE-NAME, "2-32
// chars"): where a deployment takes a short name of the wide letters at
// all (it may take fewer characters; the seed names none), a fresh name
// of n of them, accepted in lower-case letters, must be accepted too, so a
// limit counted in bytes or UTF-16 units fails. A deployment that refuses
// the short one leaves this unchecked. A name that is taken already is
// tried again.
func (w *world) takeWideName(ctx context.Context, i, n int) error {
	if n <= 4 {
		return nil
	}
	for range nameTries {
		if err := w.editName(ctx, i, wideNameOf(4)); err != nil {
			return err
		}
		if w.Last.Status/100 == 2 {
			break
		}
	}
	if w.Last.Status/100 != 2 {
		return nil // no wide letters at all: unchecked here
	}
	for range nameTries {
		name := wideNameOf(n)
		if err := w.editName(ctx, i, name); err != nil {
			return err
		}
		if w.Last.Status/100 == 2 {
			w.names[i] = name
			return nil
		}
	}
	return verdict.Failf(w.rule, fmt.Sprintf("2xx for a fresh name of %d characters, %d of them %q", n, n/2, string(wideLetters)), w.Last.Status,
		"a name of 4 such characters was accepted; %d random names tried: %s", nameTries, w.clip(w.Last.Body))
}

// editNameOfLength: member i asks for a fresh name of n characters, the
// answer kept for the next step.
func (w *world) editNameOfLength(ctx context.Context, i, n int) error {
	return w.editName(ctx, i, nameOf(n))
}

// contactOfLength is a machine-reachable contact of exactly n characters.
func contactOfLength(n int) string {
	const head = "https://agent.example/"
	return head + strings.Repeat("c", max(n-len(head), 0))
}

// editContactOfLength sets member i's profile contact to n characters.
func (w *world) editContactOfLength(ctx context.Context, i, n int) error {
	return w.editProfile(ctx, i, "", map[string]any{"contact": contactOfLength(n)})
}

// editContactWithName notes member i's profile name, then sends one edit
// with a contact of n characters and a fresh unique name: an edit refused
// for its contact "changes nothing" (BOUNTY-PROFILE-CONTACT), its name
// included, which "still has its name" then reads. A profile that cannot
// be read leaves the name unchecked there.
func (w *world) editContactWithName(ctx context.Context, i, n int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	var p struct {
		Name string `json:"name"`
	}
	if resp, err := w.call(ctx, http.MethodGet, "/agents/"+a.ID, nil); err != nil {
		return err
	} else if resp.Status/100 == 2 {
		_ = json.Unmarshal(resp.Body, &p)
	}
	w.names[i] = p.Name
	return w.editProfile(ctx, i, "", map[string]any{"contact": contactOfLength(n), "name": w.uniqueName(ctx)})
}

// profileContactIs: member i's public profile shows the contact of n
// characters it set (a refused edit changed nothing), where the profile
// shows a contact at all.
func (w *world) profileContactIs(ctx context.Context, i, n int) error {
	a, err := w.member(i)
	if err != nil {
		return err
	}
	resp, err := w.call(ctx, http.MethodGet, "/agents/"+a.ID, nil)
	if err != nil {
		return err
	}
	c, shown := raw(resp)["contact"].(string)
	if resp.Status/100 != 2 || !shown {
		return verdict.Skipf("the public profile shows no contact: whether the refused edit changed it is unchecked")
	}
	if c != contactOfLength(n) {
		return verdict.Failf("BOUNTY-PROFILE-CONTACT", fmt.Sprintf("the %d-character contact set before", n), fmt.Sprintf("%d characters", len(c)), "a refused edit must change nothing")
	}
	return nil
}

// answerSucceeded: the last answer is a 2xx (the contract names no
// status for a success), else the scenario's rule fails.
func (w *world) answerSucceeded() error {
	if w.Last == nil || w.Last.Status/100 != 2 {
		return verdict.Failf(w.rule, "2xx", w.Status(), "%s", w.bodyOf())
	}
	return nil
}
