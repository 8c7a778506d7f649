package node

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a remote's goroutine outlives the tests.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
