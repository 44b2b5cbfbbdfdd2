package cli

// `conformance simulate mafia`: one refereed Mafia match against an agent,
// pushed (--target) or on the kit's gateway (--listen).

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agentgames/conformance/conformance/pyyol"
	"github.com/agentgames/conformance/reference/pyyol/mafia"
	"github.com/agentgames/conformance/reference/pyyol/server"
	"github.com/agentgames/conformance/reference/skeleton"
)

func simulateMafiaCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("simulate mafia", "simulate mafia (--target TURN-URL --secret S | --listen ADDR) [--seed N] [--seat N] [--role R]", simulateExamples, stdout, stderr)
	target := fs.String("target", "", "the agent's push endpoint.url (its /turn)")
	secret := fs.String("secret", "", "the endpoint secret the push requests are signed with")
	listen := fs.String("listen", "", "serve the kit's gateway here and referee the first Mafia match an agent plays")
	seed := fs.Uint64("seed", 1, "seed of the match")
	seat := fs.Int("seat", 11, "the agent's seat, 0..11 (push only; on the gateway register's practice.seat)")
	role := fs.String("role", "", "the agent's role: Mafia, Detective, Doctor, Sheriff or Villager (default: the seeded deal)")
	if code, done := fs.parse(args); done {
		return code
	}
	if *seat < 0 || *seat >= mafia.Seats || (*role != "" && !isRole(*role)) {
		fmt.Fprintln(stderr, "conformance simulate: --seat is 0..11 and --role one of Mafia, Detective, Doctor, Sheriff, Villager")
		return ExitError
	}
	switch {
	case *target != "" && *listen == "":
		return simulateMafiaPush(*target, *secret, *seed, *seat, *role, stdout, stderr)
	case *listen != "" && *target == "":
		return simulateMafiaGateway(*listen, *seed, stdout, stderr)
	}
	fmt.Fprintln(stderr, "conformance simulate: give exactly one of --target (push) or --listen (gateway)")
	return ExitError
}

func isRole(r string) bool {
	for _, x := range mafia.Table() {
		if x == r {
			return true
		}
	}
	return false
}

// simulateMafiaPush plays the platform against a push endpoint.
func simulateMafiaPush(target, secret string, seed uint64, seat int, role string, stdout, stderr io.Writer) int {
	push, secrets, code := simulatedPlatform(target, secret, stderr)
	if push == nil {
		return code
	}
	ref := &pyyol.MafiaReferee{Referee: pyyol.Referee{Push: push, Seed: seed}, Seat: seat, Role: role}
	out, err := ref.Play(context.Background())
	for i, mv := range ref.Turns {
		fmt.Fprintf(stdout, "turn %2d  agent %s\n", i, describeMafiaMove(mv))
	}
	if err != nil {
		return simulationFailed(err, secrets, stderr)
	}
	printMafiaStory(stdout, out, seat)
	fmt.Fprintf(stdout, "PASS — %d legal moves; %s won on day %d; the agent was a %s\n", len(ref.Turns), out.Winner, out.Day, out.Roles[seat])
	return ExitPass
}

// printMafiaStory tells what a writer needs to judge the match besides
// its own moves: who left the table, when and how, with the roles the end
// reveals, and the seats still alive.
func printMafiaStory(w io.Writer, out mafia.Outcome, seat int) {
	day := 0
	alive := map[int]bool{}
	for s := range out.Roles {
		alive[s] = true
	}
	votes := map[int][]int{} // target -> the seats that voted for it, this phase
	for _, e := range out.Transcript {
		switch e.Type {
		case mafia.EventPhase:
			if d, ok := e.Payload["day"].(int); ok {
				day = d
			}
			votes = map[int][]int{}
		case mafia.EventVote:
			from, _ := e.Payload["from"].(int)
			target, _ := e.Payload["target"].(int)
			votes[target] = append(votes[target], from)
		case mafia.EventEliminate:
			if cause, _ := e.Payload["cause"].(string); cause == mafia.CauseVote {
				fmt.Fprintf(w, "day %d  votes: %s\n", day, voteTally(votes, seat))
			}
			target, _ := e.Payload["target"].(int)
			cause, _ := e.Payload["cause"].(string)
			delete(alive, target)
			who := fmt.Sprintf("seat %d", target)
			if target == seat {
				who += " (the agent)"
			}
			fmt.Fprintf(w, "day %d  %s out (%s), a %s\n", day, who, cause, roleOf(out.Roles, target))
		}
	}
	var left []string
	for s := range out.Roles {
		if alive[s] {
			left = append(left, fmt.Sprintf("%d %s", s, out.Roles[s]))
		}
	}
	fmt.Fprintf(w, "alive at the end: %s\n", strings.Join(left, ", "))
}

// voteTally spells a day's votes, most voted first: "3 <- 0 2 5 (the
// agent 11); 4 <- 1".
func voteTally(votes map[int][]int, agent int) string {
	targets := make([]int, 0, len(votes))
	for t := range votes {
		targets = append(targets, t)
	}
	sort.Slice(targets, func(i, j int) bool {
		if len(votes[targets[i]]) != len(votes[targets[j]]) {
			return len(votes[targets[i]]) > len(votes[targets[j]])
		}
		return targets[i] < targets[j]
	})
	parts := make([]string, len(targets))
	for i, t := range targets {
		var from []string
		for _, f := range votes[t] {
			if f == agent {
				from = append(from, fmt.Sprintf("%d (the agent)", f))
			} else {
				from = append(from, strconv.Itoa(f))
			}
		}
		parts[i] = fmt.Sprintf("seat %d <- %s", t, strings.Join(from, " "))
	}
	return strings.Join(parts, "; ")
}

func roleOf(roles []string, seat int) string {
	if seat >= 0 && seat < len(roles) {
		return roles[seat]
	}
	return "?"
}

func describeMafiaMove(mv mafia.Move) string {
	if mv.Target != nil {
		return fmt.Sprintf("%s %d", mv.Action, *mv.Target)
	}
	return fmt.Sprintf("%s %q", mv.Action, mv.Text)
}

// simulateMafiaGateway serves the kit's gateway and referees the first
// Mafia match: every fallback is printed and fails the run.
func simulateMafiaGateway(addr string, seed uint64, stdout, stderr io.Writer) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(stderr, "conformance simulate:", err)
		return ExitError
	}
	ref := &loudReferee{stdout: stdout}
	done := make(chan mafia.Outcome, 1)
	gw := server.New(server.Options{Config: skeleton.Config{Seed: int64(seed)}, Referee: ref,
		MafiaFinished: func(_ string, o mafia.Outcome) {
			select {
			case done <- o:
			default:
			}
		}})
	srv := &http.Server{Handler: gw, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	fmt.Fprintf(stdout, "gateway at ws://%s%s/agent/connect (register with games [\"mafia\"]); mint a key with POST http://%s%s/practice/agents\n",
		ln.Addr(), server.BasePath, ln.Addr(), server.BasePath)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	select {
	case out := <-done:
		if ref.bad > 0 {
			fmt.Fprintf(stdout, "FAIL — %d turn(s) took the safe default; %s won on day %d\n", ref.bad, out.Winner, out.Day)
			return ExitFail
		}
		fmt.Fprintf(stdout, "PASS — every move legal and in time; %s won on day %d\n", out.Winner, out.Day)
		return ExitPass
	case <-ctx.Done():
		return ExitError
	}
}
