package pyyol

import (
	"testing"
	"time"
)

// TestAnswerClockClearsOnlyAnswersThatMayHaveBeenLate walks a match on a
// made-up clock against the default 500 ms timeout: quick answers keep
// their moves; an answer sent 875 ms after the last sure one loses its
// move and probe mark; and the next quick answer counts again, since the
// gateway waited out at most its timeout before it went on.
func TestAnswerClockClearsOnlyAnswersThatMayHaveBeenLate(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ms := func(n int) { at = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Millisecond) }
	c := &answerClock{now: func() time.Time { return at }}
	turn := func() *monoTurn { return &monoTurn{move: map[string]any{"action": "buy"}, probe: true} }

	c.registered(nil)
	ms(10)
	c.followed() // initialize
	c.answering(nil)
	ms(20)
	c.followed() // the first turn
	t1 := turn()
	ms(25)
	c.answeringTurn(t1)
	ms(40)
	c.followed()
	t2 := turn()
	ms(900)
	c.answeringTurn(t2)
	ms(905)
	c.followed()
	t3 := turn()
	ms(910)
	c.answeringTurn(t3)
	ms(920)
	c.followed()

	if t1.late || t1.move == nil || !t1.probe {
		t.Errorf("the quick first answer was judged late: %+v", t1)
	}
	if !t2.late || t2.move != nil || t2.probe {
		t.Errorf("the answer sent 875 ms after the last sure one kept its move: %+v", t2)
	}
	if t3.late || t3.move == nil {
		t.Errorf("the quick answer after a late one was judged late: %+v", t3)
	}
	if c.late != 1 {
		t.Errorf("%d late answers counted; want 1", c.late)
	}
}
