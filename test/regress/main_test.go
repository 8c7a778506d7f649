// Package regress holds one named regression test per bug class that broke
// other circuit breakers and actor systems (notes/testing.md §2, the
// protoactor sharp edges in notes/protoactor.md, resilience4j's stuck
// half-open state, rubyist/circuitbreaker#35). Each test says which class it
// guards. They use the public root API only and run in fake time
// (testing/synctest), so every instant is exact.
package regress

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any test leaves a goroutine behind.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
