package pin

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test's goroutine outlives it.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
