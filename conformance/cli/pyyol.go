package cli

// Pyyol's addition to the command line: the `simulate` verb for agent
// writers. (The --secret, --token and --agent-id flags of `run` are the
// protocols' own Flags, bound by runOptions.)

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/agentgames/conformance/conformance/driver"
	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/conformance/verdict"
	"github.com/agentgames/conformance/reference/pyyol/agent"
	"github.com/agentgames/conformance/reference/pyyol/goofspiel"
	"github.com/agentgames/conformance/reference/pyyol/server"
	"github.com/agentgames/conformance/reference/skeleton"
)

const simulateExamples = `  conformance simulate goofspiel --target http://localhost:9099/turn --secret dev-secret
  conformance simulate goofspiel --listen 127.0.0.1:9000      # the kit's gateway; your agent dials in
  conformance simulate mafia --target http://localhost:9099/turn --secret dev-secret --role Detective
`

// simulateCmd plays one refereed Goofspiel match against an agent and
// fails loudly on any illegal move, like the docs' `pyyol simulate`.
func simulateCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "monopoly" {
		return simulateMonopolyCmd(args[1:], stdout, stderr)
	}
	if len(args) == 0 || (args[0] != "goofspiel" && args[0] != "mafia") {
		fmt.Fprintln(stderr, "conformance simulate: the first argument is the game: goofspiel, mafia or monopoly")
		return ExitError
	}
	if args[0] == "mafia" {
		return simulateMafiaCmd(args[1:], stdout, stderr)
	}
	fs := newFlagSet("simulate", "simulate goofspiel (--target TURN-URL --secret S | --listen ADDR) [--seed N]", simulateExamples, stdout, stderr)
	target := fs.String("target", "", "the agent's push endpoint.url (its /turn)")
	secret := fs.String("secret", "", "the endpoint secret the push requests are signed with")
	listen := fs.String("listen", "", "serve the kit's gateway here and referee the first match an agent plays")
	seed := fs.Uint64("seed", 1, "seed of the match")
	if code, done := fs.parse(args[1:]); done {
		return code
	}
	switch {
	case *target != "" && *listen == "":
		return simulatePush(*target, *secret, *seed, stdout, stderr)
	case *listen != "" && *target == "":
		return simulateGateway(*listen, *seed, stdout, stderr)
	}
	fmt.Fprintln(stderr, "conformance simulate: give exactly one of --target (push) or --listen (gateway)")
	return ExitError
}

// simulatePush plays the platform against a push endpoint.
func simulatePush(target, secret string, seed uint64, stdout, stderr io.Writer) int {
	push, secrets, code := simulatedPlatform(target, secret, stderr)
	if push == nil {
		return code
	}
	ref := &pyyol.Referee{Push: push, Seed: seed}
	res, err := ref.Play(context.Background())
	if err != nil {
		for i, mv := range ref.Moves {
			fmt.Fprintf(stdout, "round %2d  agent bids %2d\n", i, mv.Card)
		}
		return simulationFailed(err, secrets, stderr)
	}
	printRounds(stdout, res, [2]string{"agent", "baseline"})
	fmt.Fprintf(stdout, "PASS — %d legal moves; winner %s, scores %v\n", len(ref.Moves), winnerName(res.Winner, 0), res.Scores)
	return ExitPass
}

// simulatedPlatform is the signed push driver a simulation plays the
// platform with, or nil and the exit code when the flags do not allow one.
// The secret is registered so no line the simulation prints can show it.
func simulatedPlatform(target, secret string, stderr io.Writer) (pyyol.Pusher, *driver.Secrets, int) {
	if secret == "" {
		fmt.Fprintln(stderr, "conformance simulate: --target needs --secret (the endpoint secret)")
		return nil, nil, ExitError
	}
	base, err := suite.ResolveBase(target, agent.BasePath)
	if err != nil {
		fmt.Fprintln(stderr, "conformance simulate:", err)
		return nil, nil, ExitError
	}
	secrets := &driver.Secrets{}
	dir, turn := pyyol.PushRoutes(base)
	push := driver.NewSignedHTTP(driver.HTTPOptions{BaseURL: dir, Secrets: secrets, Timeout: 30 * time.Second},
		driver.NewHMACSigner(secret, driver.PyyolScheme(), secrets)).WithRecorder(&driver.Recorder{})
	return turnAt{push, turn}, secrets, ExitPass
}

// turnAt pushes through a signed driver, the turns to the endpoint.url's
// own path (pyyol.PushRoutes) rather than the referees' default /turn.
type turnAt struct {
	*driver.SignedHTTP
	turn string
}

// Do sends req, a /turn to the turn handler's path.
func (t turnAt) Do(ctx context.Context, req driver.Request) (*driver.Response, error) {
	if req.Path == "/turn" {
		req.Path = t.turn
	}
	return t.SignedHTTP.Do(ctx, req)
}

// simulationFailed prints a simulation's failure, redacted, and maps it to
// the exit code: a broken rule fails, anything else is a harness error.
func simulationFailed(err error, secrets *driver.Secrets, stderr io.Writer) int {
	fmt.Fprintln(stderr, "FAIL:", secrets.Redact(err.Error()))
	var f *verdict.Failure
	if errors.As(err, &f) {
		return ExitFail
	}
	return ExitError
}

// printRounds shows each round as it resolved: the prize at stake, the
// pool, both bids by seat and who took it.
func printRounds(stdout io.Writer, res goofspiel.Result, names [2]string) {
	for _, r := range res.History {
		winner := "tie"
		if r.Winner == 0 || r.Winner == 1 {
			winner = names[r.Winner]
		}
		fmt.Fprintf(stdout, "round %2d  prize %2d (pool %2d)  %s bids %2d  %s bids %2d  → %s  scores %v\n",
			r.Round, r.Prize, r.PrizePool, names[0], r.Cards[0], names[1], r.Cards[1], winner, r.Scores)
	}
}

func winnerName(w, seat int) string {
	switch w {
	case -1:
		return "tie"
	case seat:
		return "agent"
	}
	return "baseline"
}

// loudReferee collects what the gateway refused or missed.
type loudReferee struct {
	mu       sync.Mutex
	stdout   io.Writer
	bad      int
	finished chan goofspiel.Result
}

func (l *loudReferee) Fallback(agentID string, round int, why string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bad++
	fmt.Fprintf(l.stdout, "✗ round %d: %s — the engine played the fallback\n", round, why)
}

func (l *loudReferee) Finished(_ string, res goofspiel.Result) {
	select {
	case l.finished <- res:
	default:
	}
}

// simulateGateway serves the kit's gateway and referees the first match.
func simulateGateway(addr string, seed uint64, stdout, stderr io.Writer) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(stderr, "conformance simulate:", err)
		return ExitError
	}
	ref := &loudReferee{stdout: stdout, finished: make(chan goofspiel.Result, 1)}
	gw := server.New(server.Options{Config: skeleton.Config{Seed: int64(seed)}, Referee: ref})
	srv := &http.Server{Handler: gw, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	fmt.Fprintf(stdout, "gateway at ws://%s%s/agent/connect; mint a key with POST http://%s%s/practice/agents\n",
		ln.Addr(), server.BasePath, ln.Addr(), server.BasePath)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	select {
	case res := <-ref.finished:
		printRounds(stdout, res, [2]string{"seat 0", "seat 1"})
		if ref.bad > 0 {
			fmt.Fprintf(stdout, "FAIL — %d turn(s) took the fallback; winner seat %d, scores %v\n", ref.bad, res.Winner, res.Scores)
			return ExitFail
		}
		fmt.Fprintf(stdout, "PASS — every move legal and in time; winner seat %d, scores %v\n", res.Winner, res.Scores)
		return ExitPass
	case <-ctx.Done():
		return ExitError
	}
}
