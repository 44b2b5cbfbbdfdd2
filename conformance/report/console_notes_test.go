package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/verdict"
)

// TestConsoleNotesOnAPass: a check's info notes print under its line even
// when it passed, after its warnings, and only the marked transcript
// notes become notes.
func TestConsoleNotesOnAPass(t *testing.T) {
	var buf bytes.Buffer
	c := NewConsole(&buf, ConsoleOptions{})
	c.Start("pp", 1)
	ex := []verdict.Exchange{{Note: "a frame"}, {Note: verdict.InfoPrefix + "states reached: jail"}}
	c.Done(verdict.Result{Protocol: "pp", Feature: "f", Name: "a", Status: verdict.Pass, Warnings: []string{"slow"},
		Notes: verdict.InfoNotes(ex)})
	want := []string{"pp: 1 check", "[  1/1] pp  f › a ... PASS (0ms)", "        warning: slow", "        note: states reached: jail"}
	if got := lines(buf.String()); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
