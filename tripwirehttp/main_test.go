package tripwirehttp_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine behind: a round
// trip never cancelled, a connection never closed, a drain that never ends.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
