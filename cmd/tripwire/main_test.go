package main

import (
	"os"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// childEnv, set in a child process a test started, holds the command line
// the child runs instead of the tests (see startChild).
const childEnv = "TRIPWIRE_TEST_COMMAND"

// The commands start actor systems and registries: each must be gone when
// its command returns.
func TestMain(m *testing.M) {
	if args := os.Getenv(childEnv); args != "" {
		os.Exit(run(strings.Fields(args), os.Stdout, os.Stderr))
	}
	goleak.VerifyTestMain(m)
}
