package tripwiregrpc_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine behind: a call
// never cancelled, a connection or a server never stopped.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
