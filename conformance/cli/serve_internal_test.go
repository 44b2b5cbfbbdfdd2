package cli

import "testing"

func TestServeWithoutASeedPicksARandomOne(t *testing.T) {
	if got := serveSeed(7); got != 7 {
		t.Fatalf("an explicit seed is kept, got %d", got)
	}
	a, b := serveSeed(0), serveSeed(0)
	if a <= 0 || b <= 0 || a == b {
		t.Fatalf("random seeds %d and %d", a, b)
	}
}

func TestServeBoundsEveryConnection(t *testing.T) {
	srv := newHTTPServer(nil)
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 || srv.MaxHeaderBytes <= 0 {
		t.Fatalf("unbounded server: %+v", srv)
	}
}
