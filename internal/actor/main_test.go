package actor

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a breaker, worker or timer goroutine
// outlives the tests.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
