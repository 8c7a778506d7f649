package remote

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/internal/node"

	"github.com/asynkron/protoactor-go/actor"

	"go.uber.org/goleak"
)

// home is this process's node: the registries of all tests run on it. It
// is started once, before any other gRPC activity of the process (see
// child_test.go for why one remote per process).
var home *node.Node

// TestMain runs the tests, or, started by a test as a child process, a node.
func TestMain(m *testing.M) {
	if spec := os.Getenv(childEnv); spec != "" {
		os.Exit(runChild(spec))
	}
	if spec := os.Getenv(callerEnv); spec != "" {
		os.Exit(runCaller(spec))
	}
	var err error
	if home, err = node.Start("127.0.0.1:0", 0, debugLog(), actor.WithDeadLetterThrottleInterval(10*time.Millisecond)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	removeCerts()
	waitRemoteQuiet()
	home.Stop()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}
