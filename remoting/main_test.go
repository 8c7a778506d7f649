package remoting_test

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a goroutine outlives the tests, once the
// tests' node is stopped.
func TestMain(m *testing.M) {
	code := m.Run()
	stopTestNode()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}
