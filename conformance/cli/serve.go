package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/agentgames/conformance/conformance/suite"
	"github.com/agentgames/conformance/reference/audit"
	"github.com/agentgames/conformance/reference/faults"
	"github.com/agentgames/conformance/reference/httplog"
)

const serveExamples = `  conformance serve                                  # every protocol on 127.0.0.1:8080
  conformance serve --addr 127.0.0.1:9000 --protocol iyra --seed 7
  curl http://127.0.0.1:8080/                        # lists what is served where
  conformance serve --faults list                    # the documented faults each protocol can inject
  conformance serve --faults light --seed 7          # inject them at 5% of the requests they apply to
  conformance serve --faults light --audit out       # and audit the agents: GET /_audit, out/audit.{json,html} on stop
  conformance serve --seed 7 --ready-file serve.url & # serve.url appears once serve answers
  conformance serve --production --protocol pyyol-platform # a platform that refuses loopback endpoints
`

func serveCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", "serve [--addr HOST:PORT] [--protocol P] [--seed S] [--faults list|PROFILE|RATE] [--audit DIR] [--production] [--ready-file F]", serveExamples, stdout, stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	protocol := fs.String("protocol", "", "protocol(s) to serve, comma-separated (default: all)")
	seed := fs.Uint64("seed", 0, "seed for every random choice of the reference servers, the same world as run --seed (0: random, printed)")
	auditDir := fs.String("audit", "", "audit the agents against the contracts' rules for agents; GET /_audit reports, and audit.json and audit.html are written to this folder when serve stops")
	faultFlag := fs.String("faults", "", "inject the contracts' documented faults: list, a profile (light, heavy) or a rate in (0, 1]")
	production := fs.Bool("production", false, "play production deployments: drop the contracts' development opt-ins (Pyyol's platform then refuses loopback endpoints, as run --production-platform expects)")
	readyFile := fs.String("ready-file", "", "once every listener accepts, write the served URL to this file (atomically; removed when serve stops), for scripts that must not start before serve is ready (see also conformance wait)")
	if code, done := fs.parse(args); done {
		return code
	}
	ps, err := selectProtocols(*protocol)
	if err != nil {
		fmt.Fprintln(stderr, "conformance serve:", err)
		return ExitError
	}
	if *faultFlag == "list" {
		printFaults(stdout, ps)
		return ExitPass
	}
	opts := ServeOptions{Production: *production}
	if *faultFlag != "" {
		if opts.FaultRate, err = faults.ParseRate(*faultFlag); err != nil {
			fmt.Fprintln(stderr, "conformance serve:", err)
			return ExitError
		}
	}
	if *auditDir != "" {
		opts.Audit = audit.New(nil)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "conformance serve:", err)
		return ExitError
	}
	logger := log.New(stdout, "", log.LstdFlags)
	*seed = serveSeed(*seed)
	fmt.Fprintf(stdout, "seed %d (restart with --seed %d for the same keys, challenges and cases)\n", *seed, *seed)
	handler := ServeMuxWith(ps, *seed, logger, opts)
	Banner(stdout, ps, ln.Addr().String())
	if opts.Audit != nil {
		fmt.Fprintf(stdout, "audit at http://%s/_audit (?format=text|html); written to %s when serve stops\n", ln.Addr().String(), *auditDir)
	}
	code := serveUntilInterrupt(ln, handler, *readyFile, stderr)
	if opts.Audit != nil {
		if err := WriteAuditFiles(*auditDir, opts.Audit, stdout); err != nil {
			fmt.Fprintln(stderr, "conformance serve: writing the audit:", err)
			return ExitError
		}
	}
	return code
}

func serveUntilInterrupt(ln net.Listener, h http.Handler, readyFile string, stderr io.Writer) int {
	srv := newHTTPServer(h)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	shutdown := func() {
		done, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(done)
	}
	go func() {
		<-ctx.Done()
		shutdown()
	}()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if readyFile != "" {
		defer os.Remove(readyFile)
		if err := signalReady(ctx, ln.Addr().String(), readyFile); err != nil {
			fmt.Fprintln(stderr, "conformance serve: --ready-file:", err)
			shutdown()
			<-served
			return ExitError
		}
	}
	if err := <-served; err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(stderr, "conformance serve:", err)
		return ExitError
	}
	return ExitPass
}

// Banner prints one line per service, `serving NAME TITLE at URL`, so that
// scripts can find every one: the protocol's base path over HTTP, then one
// ws:// line per WebSocket path it declares; and, for a protocol whose
// live run needs more than --target and --protocol, `flags NAME ARGS...`
// with the extra `conformance run` arguments (the reference's documented
// development credentials, never a real secret).
func Banner(w io.Writer, ps []*suite.Protocol, addr string) {
	for _, p := range ps {
		fmt.Fprintf(w, "serving %s %s at http://%s%s%s\n", p.Name, p.Title, addr, p.BasePath, p.EntryPath)
		for _, ws := range p.WebSocketPaths {
			fmt.Fprintf(w, "serving %s %s at ws://%s%s%s\n", p.Name, p.Title, addr, p.BasePath, ws)
		}
		if len(p.ServeFlags) > 0 {
			fmt.Fprintf(w, "flags %s %s\n", p.Name, strings.Join(p.ServeFlags, " "))
		}
	}
}

// serveSeed returns seed, or a random positive one when it is 0, so that
// two starts of serve never hand out the same keys unless asked to.
func serveSeed(seed uint64) uint64 {
	for seed == 0 {
		seed = uint64(rand.Int64N(math.MaxInt64))
	}
	return seed
}

// newHTTPServer bounds every connection: a client that sends its headers
// slowly, never finishes its body, never reads its answer or idles forever
// is cut off, and headers are capped, so no client can hold the server.
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
}

// ServeMux mounts each protocol's reference server under its base path,
// with an index at / and one log line per request (reference/httplog).
func ServeMux(ps []*suite.Protocol, seed uint64, logger *log.Logger) http.Handler {
	return ServeMuxWith(ps, seed, logger, ServeOptions{})
}

// ServeOptions are what serve adds in front of the reference servers for
// agent writers.
type ServeOptions struct {
	// FaultRate injects the contracts' documented faults (--faults); 0
	// injects none.
	FaultRate float64
	// Audit, if set, watches agents for the contracts' rules for agents
	// (--audit); GET /_audit reports what it saw.
	Audit *audit.Auditor
	// Production drops the development opt-ins (--production,
	// skeleton.Config.Production).
	Production bool
}

// ServeMuxWith is ServeMux with the agent writers' options.
func ServeMuxWith(ps []*suite.Protocol, seed uint64, logger *log.Logger, opts ServeOptions) http.Handler {
	mux := http.NewServeMux()
	index := map[string]string{}
	for _, p := range ps {
		h := p.Reference(suite.ReferenceConfig{Seed: suite.ReferenceSeed(seed), Production: opts.Production})
		h = withAudit(withFaults(h, p, opts.FaultRate, seed, logger), p, opts.Audit)
		mux.Handle(p.BasePath, h)
		if p.BasePath != "/" { // a root mount (FORGE) is already a subtree; "//" would redirect /x to /x/
			mux.Handle(p.BasePath+"/", h)
		}
		index[p.Name] = p.BasePath
	}
	if opts.Audit != nil {
		opts.Audit.SetSeed(seed)
		mux.HandleFunc("GET /_audit", serveAudit(opts.Audit))
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"service": "conformance reference servers", "protocols": index})
	})
	return httplog.Handler(mux, logger)
}
