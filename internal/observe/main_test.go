package observe

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a hub or subscriber goroutine outlives the
// tests.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
