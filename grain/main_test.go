package grain

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a failover's goroutine outlives its test.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
