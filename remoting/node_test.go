package remoting_test

import (
	"crypto/tls"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/node"
	"github.com/tripwire-go/tripwire/internal/testcerts"
	"github.com/tripwire-go/tripwire/remoting"
)

// The tests' node: protoactor's remote with this package's options, mutual
// TLS of the tests' CA, and the echo of internal/node, started once for the
// whole package (protoactor's remote.Start writes gRPC's process-wide
// logger without synchronisation, so a second remote in the process would
// race).
var testNode struct {
	once    sync.Once
	n       *node.Node
	ca      *testcerts.CA
	refused chan remoting.Refusal
	err     error
}

// nodeUnderTest returns the tests' node, its CA, and the guard's refusals.
func nodeUnderTest(t *testing.T) (*node.Node, *testcerts.CA, <-chan remoting.Refusal) {
	t.Helper()
	testNode.once.Do(func() {
		testNode.refused = make(chan remoting.Refusal, 64)
		if testNode.ca, testNode.err = testcerts.NewCA("tripwire test CA"); testNode.err != nil {
			return
		}
		var cert tls.Certificate
		if cert, testNode.err = testNode.ca.Issue("node", "127.0.0.1"); testNode.err != nil {
			return
		}
		opts, err := remoting.Options(remoting.Config{
			TLS:       remoting.MutualTLS(cert, testNode.ca.Pool()),
			OnRefused: func(r remoting.Refusal) { testNode.refused <- r },
		})
		if testNode.err = err; err != nil {
			return
		}
		testNode.n, testNode.err = node.StartConfig(node.Config{Listen: "127.0.0.1:0", Remote: opts,
			System: []actor.ConfigOption{actor.WithDeadLetterThrottleInterval(10 * time.Millisecond)}})
	})
	if testNode.err != nil {
		t.Fatal(testNode.err)
	}
	return testNode.n, testNode.ca, testNode.refused
}

func stopTestNode() {
	if testNode.n != nil {
		testNode.n.Stop()
	}
}
