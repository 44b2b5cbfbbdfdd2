package server

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/agentgames/conformance/reference/bounty"
	bountyserver "github.com/agentgames/conformance/reference/bounty/server"
	"github.com/agentgames/conformance/reference/faults"
	"github.com/agentgames/conformance/reference/httplog"
	sx "github.com/agentgames/conformance/reference/shareexchange"
	"github.com/agentgames/conformance/reference/skeleton"
)

// BasePath is where `conformance serve` mounts the reference responder;
// its own bounty platform is under BasePath + PlatformPath.
const (
	BasePath     = "/share-exchange"
	PlatformPath = "/platform"
)

// New builds the reference (answers shaped as spec/share-exchange/openapi.yaml,
// SX-OPENAPI): a responder (with its control surface) that
// reads the board of an in-process bounty platform, and that platform,
// served beside it so a runner can register, solve and list on it
// (SX-CONTROL).
func New(cfg skeleton.Config) http.Handler { return NewBroken(cfg) }

// NewBroken is New with a responder that violates the named rules on
// purpose, for the tamper tests.
func NewBroken(cfg skeleton.Config, rules ...string) http.Handler {
	e := bounty.New(cfg.Seed, cfg.Clock())
	resp := &Responder{Board: e.Live, Control: true, Broken: map[string]bool{}}
	for _, r := range rules {
		resp.Broken[r] = true
	}
	platform := http.StripPrefix(BasePath+PlatformPath, bountyserver.NewServer(e))
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, BasePath+PlatformPath+"/") {
			platform.ServeHTTP(w, r)
			return
		}
		if faults.Injected(r.Context(), bountyserver.RoundRotated) {
			e.HouseWin() // serve --faults: the round rotates under this exchange
		}
		r2 := stripped(r, "/"+strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, BasePath), "/"))
		if r2.URL.Path == "/" && r.Method == http.MethodGet {
			write(w, 200, map[string]any{"protocol": sx.Protocol, "agents": resp.agents(), "platform": PlatformPath})
			return
		}
		resp.ServeHTTP(w, r2)
	})
	return httplog.Handler(h, cfg.Log)
}

// stripped is r with its URL's path replaced: a shallow copy with its
// own URL, as http.StripPrefix makes, instead of a deep clone of every
// header per request (the responder reads the request, never changes it).
func stripped(r *http.Request, path string) *http.Request {
	r2 := new(http.Request)
	*r2 = *r
	u := *r.URL
	u.Path = path
	r2.URL = &u
	return r2
}

func itoa(n int) string { return strconv.Itoa(n) }
