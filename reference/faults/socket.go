package faults

import (
	"context"
	"slices"
)

// Socket is the injector as a server sees it inside one long-lived
// exchange, such as a WebSocket's frames, where a fault is not an HTTP
// answer but something the server does (drop the socket, let a turn's
// deadline pass). The server asks Draw at each point where the contract
// documents a failure; a nil Socket (no --faults) never draws one.
type Socket struct {
	in   *injector
	path string
}

type socketKey struct{}

// withSocket hands the injector to the server behind it, for the faults
// that happen inside the exchange.
func withSocket(ctx context.Context, in *injector, path string) context.Context {
	return context.WithValue(ctx, socketKey{}, &Socket{in: in, path: path})
}

// SocketFrom returns the injector of the request whose context is ctx, or
// nil when no faults are injected.
func SocketFrom(ctx context.Context) *Socket {
	s, _ := ctx.Value(socketKey{}).(*Socket)
	return s
}

// Draw decides, reproducibly from the seed like every other draw, whether
// this point of the exchange meets one of the named faults (those without
// Applies), and logs the injection with its rule and the point. Named
// faults the protocol does not list are ignored.
func (s *Socket) Draw(point string, names ...string) (Fault, bool) {
	if s == nil {
		return Fault{}, false
	}
	var fit []Fault
	for _, f := range s.in.faults {
		if f.Applies == nil && slices.Contains(names, f.Name) {
			fit = append(fit, f)
		}
	}
	if len(fit) == 0 {
		return Fault{}, false
	}
	s.in.mu.Lock()
	miss := s.in.rng.Float64() >= s.in.o.Rate
	f := fit[s.in.rng.IntN(len(fit))]
	s.in.mu.Unlock()
	if miss {
		return Fault{}, false
	}
	if s.in.o.Log != nil {
		s.in.o.Log.Printf("fault injected: %s %s WS %s %s (%s)", f.Rule, f.Name, s.path, point, f.Doc)
	}
	return f, true
}
