package driver_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentgames/conformance/conformance/driver"
)

// BenchmarkRedactEscapedBody redacts an 8 KiB JSON body with escapes
// against 50 registered keys: the cost of finding every spelling.
func BenchmarkRedactEscapedBody(b *testing.B) {
	s := &driver.Secrets{}
	for i := 0; i < 50; i++ {
		s.Add(fmt.Sprintf("aa_%032x", i*7919))
	}
	body := strings.Repeat(`{"note":"a \"quoted\" value \/ path","n":12345}`, 180)
	b.SetBytes(int64(len(body)))
	for i := 0; i < b.N; i++ {
		s.Redact(body)
	}
}
