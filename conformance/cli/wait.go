package cli

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"
)

const waitExamples = `  conformance serve --seed 7 &
  conformance wait http://127.0.0.1:8080/ --timeout 2m   # returns once serve answers
  conformance wait https://staging.example/api/v5/tasks/play --timeout 30s
`

// DefaultWait bounds `conformance wait` without --timeout: long enough for
// a CI job that builds the kit with go run before serving.
const DefaultWait = 2 * time.Minute

// waitCmd polls a URL until it answers, so a CI script starts its runs
// only once the target (often `conformance serve &`) is up. Any HTTP
// answer but 502, 503 and 504 counts; a timeout is exit 2 with the last
// error.
func waitCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("wait", "wait URL [--timeout D]", waitExamples, stdout, stderr)
	timeout := fs.Duration("timeout", DefaultWait, "give up after this long (exit 2)")
	quiet := fs.Bool("quiet", false, "print nothing when the URL answers")
	if code, done := fs.parseWithArgs(args); done {
		return code
	}
	if len(fs.positional) != 1 {
		fmt.Fprintln(stderr, "conformance wait: name one URL to wait for, e.g. conformance wait http://127.0.0.1:8080/")
		return ExitError
	}
	target := fs.positional[0]
	if u, err := url.Parse(target); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		fmt.Fprintf(stderr, "conformance wait: %q is not an http(s) URL\n", target)
		return ExitError
	}
	if *timeout <= 0 {
		fmt.Fprintf(stderr, "conformance wait: --timeout must be positive, not %s\n", *timeout)
		return ExitError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	if err := awaitAnswer(ctx, target, *timeout); err != nil {
		fmt.Fprintln(stderr, "conformance wait:", err)
		return ExitError
	}
	if !*quiet {
		fmt.Fprintf(stdout, "%s answers (after %s)\n", target, time.Since(start).Round(time.Millisecond))
	}
	return ExitPass
}
