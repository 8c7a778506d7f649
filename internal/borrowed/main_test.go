package borrowed_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test's goroutine (an actor's, a
// client's) outlives it.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
