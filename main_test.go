package tripwire_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any test leaves a goroutine behind: a worker,
// a timer, a caller or an actor system that Shutdown did not stop.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
