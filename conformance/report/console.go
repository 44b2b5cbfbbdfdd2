package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/agentgames/conformance/conformance/verdict"
)

// ConsoleOptions tunes the live progress output.
type ConsoleOptions struct {
	// Color wraps status words in ANSI colour codes. Off by default because
	// CI logs and redirected output show the escape codes as garbage.
	Color bool
	// Verbose also prints a line when a check begins, which helps find the
	// check a hung run is stuck in.
	Verbose bool
}

// Console prints live progress: a header per protocol, one line per
// finished check with a done/total counter, and the one-line message of
// every fail, warning and error indented beneath it. It satisfies
// suite.Progress and is safe for concurrent use, because checks of different
// protocols may finish on different goroutines.
type Console struct {
	mu    sync.Mutex
	w     io.Writer
	opts  ConsoleOptions
	total map[string]int
	done  map[string]int
	// shown are the missing routes whose not-served skip was printed in
	// full, per protocol: the next checks they leave unchecked print only
	// their line, and the summary sums them up (NOT SERVED).
	shown map[string]bool
}

// NewConsole returns a Console writing to w.
func NewConsole(w io.Writer, opts ConsoleOptions) *Console {
	return &Console{w: w, opts: opts, total: map[string]int{}, done: map[string]int{}, shown: map[string]bool{}}
}

// Start announces a protocol and how many checks it will run; the counter
// of its lines counts up to total.
func (c *Console) Start(protocol string, total int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total[protocol] = total
	c.done[protocol] = 0
	fmt.Fprintf(c.w, "%s: %s\n", protocol, plural(total, "check"))
}

// Begin notes that a check started; it prints only in verbose mode so a
// normal log holds one line per check.
func (c *Console) Begin(protocol, feature, name string) {
	if !c.opts.Verbose {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	blank := strings.Repeat(" ", len(c.counter(protocol, 0)))
	res := verdict.Result{Feature: feature, Name: name}
	fmt.Fprintf(c.w, "%s %s  %s ...\n", blank, protocol, checkName(res))
}

// Done prints the line of a finished check and, for anything but a clean
// pass, its message and warnings indented under it.
func (c *Console) Done(r verdict.Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done[r.Protocol]++
	counter := c.counter(r.Protocol, c.done[r.Protocol])
	fmt.Fprintf(c.w, "%s %s  %s ... %s (%s)\n", counter, r.Protocol, checkName(r),
		c.word(r.Status), formatDuration(r.Duration))
	indent := strings.Repeat(" ", len(counter)+1)
	if r.Status != verdict.Pass && (r.Message != "" || r.FailedRule != "") && c.firstOfRoute(r) {
		fmt.Fprintf(c.w, "%s%s\n", indent, oneLine(ruleMessage(r), 200))
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(c.w, "%swarning: %s\n", indent, oneLine(w, 200))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(c.w, "%snote: %s\n", indent, oneLine(n, 200))
	}
}

// firstOfRoute reports whether r's message is worth printing: anything
// but a not-served skip, or the first one naming its route.
func (c *Console) firstOfRoute(r verdict.Result) bool {
	route, ok := verdict.NotServedRoute(r.Message)
	if !ok || r.Status != verdict.Skip {
		return true
	}
	key := r.Protocol + " " + route
	if c.shown[key] {
		return false
	}
	c.shown[key] = true
	return true
}

// counter renders "[ 12/40]": done padded to the width of the total (at
// least three digits) so lines align; "?" when Start was never called.
func (c *Console) counter(protocol string, done int) string {
	total, ok := c.total[protocol]
	if !ok {
		return fmt.Sprintf("[%3d/?]", done)
	}
	t := strconv.Itoa(total)
	width := max(3, len(t))
	return fmt.Sprintf("[%*d/%s]", width, done, t)
}

// ansi holds the colour of each status word.
var ansi = map[verdict.Status]string{
	verdict.Pass:  "\x1b[32m",   // green
	verdict.Fail:  "\x1b[1;31m", // bold red
	verdict.Warn:  "\x1b[33m",   // yellow
	verdict.Skip:  "\x1b[36m",   // cyan
	verdict.Error: "\x1b[1;35m", // bold magenta
}

// word is the upper-case status word, coloured when asked.
func (c *Console) word(st verdict.Status) string {
	w := strings.ToUpper(string(st))
	if code, ok := ansi[st]; ok && c.opts.Color {
		return code + w + "\x1b[0m"
	}
	return w
}
