package dashboard

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine behind: an event
// stream that outlived its server, a caller, a breaker, a browser's reader.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
