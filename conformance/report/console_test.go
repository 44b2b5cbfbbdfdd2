package report

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentgames/conformance/conformance/verdict"
)

func lines(s string) []string {
	return strings.Split(strings.TrimRight(s, "\n"), "\n")
}

func TestConsoleLineFormat(t *testing.T) {
	var buf bytes.Buffer
	c := NewConsole(&buf, ConsoleOptions{})
	c.Start("iyra", 40)
	res := verdict.Result{Protocol: "iyra", Feature: "identity proof", Name: "rejects an expired challenge",
		Status: verdict.Pass, Duration: 3 * time.Millisecond}
	for range 12 {
		c.Done(res)
	}
	got := lines(buf.String())
	if got[0] != "iyra: 40 checks" {
		t.Errorf("header = %q", got[0])
	}
	want := "[ 12/40] iyra  identity proof › rejects an expired challenge ... PASS (3ms)"
	if got[12] != want {
		t.Errorf("12th line\n got %q\nwant %q", got[12], want)
	}
	if len(got) != 13 {
		t.Errorf("a pass must print exactly one line; got %d lines for 12 passes", len(got)-1)
	}
}

func TestConsoleMessagesIndented(t *testing.T) {
	var buf bytes.Buffer
	c := NewConsole(&buf, ConsoleOptions{})
	c.Start("pp", 3)
	c.Done(verdict.Result{Protocol: "pp", Feature: "f", Name: "a", Status: verdict.Fail, FailedRule: "PP-X",
		Message: "expected 401,\nobserved 200", Duration: 1500 * time.Millisecond})
	c.Done(verdict.Result{Protocol: "pp", Feature: "f", Name: "b", Status: verdict.Error, Message: "harness error: timeout"})
	c.Done(verdict.Result{Protocol: "pp", Feature: "f", Name: "c", Status: verdict.Pass, Warnings: []string{"slow"}})
	want := []string{
		"pp: 3 checks",
		"[  1/3] pp  f › a ... FAIL (1.50s)",
		"        PP-X: expected 401, observed 200",
		"[  2/3] pp  f › b ... ERROR (0ms)",
		"        harness error: timeout",
		"[  3/3] pp  f › c ... PASS (0ms)",
		"        warning: slow",
	}
	if got := lines(buf.String()); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestConsoleColourOnlyWhenAsked(t *testing.T) {
	res := verdict.Result{Protocol: "pp", Name: "a", Status: verdict.Fail, Message: "boom"}
	var plain, coloured bytes.Buffer
	NewConsole(&plain, ConsoleOptions{}).Done(res)
	NewConsole(&coloured, ConsoleOptions{Color: true}).Done(res)
	if strings.Contains(plain.String(), "\x1b[") {
		t.Errorf("default output holds ANSI codes: %q", plain.String())
	}
	if !strings.Contains(coloured.String(), "\x1b[1;31mFAIL\x1b[0m") {
		t.Errorf("coloured output lacks red FAIL: %q", coloured.String())
	}
	if !strings.HasPrefix(plain.String(), "[  1/?] pp  a ... FAIL") {
		t.Errorf("a protocol never started must show an unknown total: %q", plain.String())
	}
}

func TestConsoleVerboseBegin(t *testing.T) {
	var quiet, loud bytes.Buffer
	NewConsole(&quiet, ConsoleOptions{}).Begin("iyra", "f", "n")
	c := NewConsole(&loud, ConsoleOptions{Verbose: true})
	c.Start("iyra", 2)
	c.Begin("iyra", "f", "n")
	if quiet.Len() != 0 {
		t.Errorf("Begin printed without Verbose: %q", quiet.String())
	}
	if got := lines(loud.String())[1]; got != "        iyra  f › n ..." {
		t.Errorf("verbose begin line = %q", got)
	}
}

// TestConsoleConcurrent finishes checks of two protocols from many
// goroutines; with -race it proves the mutex, and the counters prove no
// update was lost or duplicated.
func TestConsoleConcurrent(t *testing.T) {
	var buf bytes.Buffer
	c := NewConsole(&buf, ConsoleOptions{})
	const n = 50
	c.Start("iyra", n)
	c.Start("pp", n)
	var wg sync.WaitGroup
	for i := range n {
		for _, p := range []string{"iyra", "pp"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c.Begin(p, "f", fmt.Sprint(i))
				c.Done(verdict.Result{Protocol: p, Feature: "f", Name: fmt.Sprint(i), Status: verdict.Pass})
			}()
		}
	}
	wg.Wait()
	out := buf.String()
	for _, p := range []string{"iyra", "pp"} {
		for i := 1; i <= n; i++ {
			tag := fmt.Sprintf("[%3d/%d] %s  ", i, n, p)
			if k := strings.Count(out, tag); k != 1 {
				t.Fatalf("counter %q appears %d times", tag, k)
			}
		}
	}
	if got := len(lines(out)); got != 2+2*n {
		t.Errorf("got %d lines, want %d", got, 2+2*n)
	}
}

func TestConsoleLongMessageCutToOneLine(t *testing.T) {
	var buf bytes.Buffer
	msg := strings.Repeat("é", 300) + "\x1b[2J\xff"
	NewConsole(&buf, ConsoleOptions{}).Done(verdict.Result{Protocol: "pp", Name: "a", Status: verdict.Warn, Message: msg})
	got := lines(buf.String())[1]
	body := strings.TrimLeft(got, " ")
	if len([]rune(body)) != 200 || !strings.HasSuffix(body, "é…") {
		t.Errorf("message not cut to 200 runes: %d runes, ends %q", len([]rune(body)), body[len(body)-8:])
	}
	if got := oneLine("ok\x1b[2J\xff", 200); got != `ok\x1b[2J\xff` {
		t.Errorf("control and invalid bytes not escaped: %q", got)
	}
}
