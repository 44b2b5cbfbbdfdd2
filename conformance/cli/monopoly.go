package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
	"github.com/agentgames/conformance/reference/pyyol/server"
	"github.com/agentgames/conformance/reference/skeleton"
)

const simulateMonopolyExamples = `  conformance simulate monopoly --listen 127.0.0.1:9000   # the kit's gateway; your agent dials in and registers for monopoly
  conformance simulate monopoly --target http://localhost:9099/turn --secret dev-secret --seat 1 --players 2   # pushed to your endpoint
`

// simulateMonopolyCmd serves the kit's gateway and referees the first
// Monopoly match an agent plays there: every refused or missed decision
// is printed and fails the run.
func simulateMonopolyCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("simulate monopoly", "simulate monopoly (--listen ADDR | --target TURN-URL --secret S [--seat N] [--players N]) [--seed N]", simulateMonopolyExamples, stdout, stderr)
	listen := fs.String("listen", "", "serve the kit's gateway here and referee the first Monopoly match an agent plays")
	target := fs.String("target", "", "the agent's push endpoint.url (its /turn)")
	secret := fs.String("secret", "", "the endpoint secret the push requests are signed with")
	seat := fs.Int("seat", 0, "the agent's seat (push only)")
	players := fs.Int("players", 4, "the table size, 2..8 (push only; engine bots fill the other seats)")
	seed := fs.Uint64("seed", 1, "seed of the match")
	if code, done := fs.parse(args); done {
		return code
	}
	switch {
	case *target != "" && *listen == "":
		return simulateMonopolyPush(*target, *secret, *seed, *seat, *players, stdout, stderr)
	case *listen != "" && *target == "":
		return simulateMonopoly(*listen, *seed, stdout, stderr, nil)
	}
	fmt.Fprintln(stderr, "conformance simulate monopoly: give exactly one of --listen ADDR (gateway) or --target TURN-URL (push)")
	return ExitError
}

// monopolyReferee prints refused or missed decisions and hears the end.
type monopolyReferee struct {
	loudReferee
	done chan []int
	seat int
}

func (m *monopolyReferee) Finished(string, goofspiel.Result) {}

func (m *monopolyReferee) MonopolyFinished(_ string, seat int, winners []int) {
	m.seat = seat
	select {
	case m.done <- winners:
	default:
	}
}

// simulateMonopoly serves the gateway on addr; ready, when set, hears the
// listening address (tests).
func simulateMonopoly(addr string, seed uint64, stdout, stderr io.Writer, ready func(string)) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(stderr, "conformance simulate:", err)
		return ExitError
	}
	ref := &monopolyReferee{loudReferee: loudReferee{stdout: stdout}, done: make(chan []int, 1)}
	gw := server.New(server.Options{Config: skeleton.Config{Seed: int64(seed)}, Referee: ref})
	srv := &http.Server{Handler: gw, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	fmt.Fprintf(stdout, "gateway at ws://%s%s/agent/connect (register with games [\"monopoly\"]); mint a key with POST http://%s%s/practice/agents\n",
		ln.Addr(), server.BasePath, ln.Addr(), server.BasePath)
	if ready != nil {
		ready(ln.Addr().String())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	select {
	case winners := <-ref.done:
		if ref.bad > 0 {
			fmt.Fprintf(stdout, "FAIL — %d decision(s) took the fallback; winners %v (agent seat %d)\n", ref.bad, winners, ref.seat)
			return ExitFail
		}
		fmt.Fprintf(stdout, "PASS — every decision legal and in time; winners %v (agent seat %d)\n", winners, ref.seat)
		return ExitPass
	case <-ctx.Done():
		return ExitError
	}
}
