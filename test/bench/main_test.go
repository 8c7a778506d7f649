// Package bench measures Tripwire's call paths against their peers in one
// run: a plain protoactor RequestFuture (the floor for an actor target) and
// sony/gobreaker wrapping it (what a user would write instead). See
// BENCHMARKS.md at the repository root; run with `make bench`.
package bench

import (
	"context"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"go.uber.org/goleak"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// callTimeout is both the breaker's CallTimeout and the RequestFuture
// timeout, so every path arms a deadline of the same length.
const callTimeout = 5 * time.Second

// ping is the message every benchmark sends; one value is reused so the
// benchmarks measure the call path, not the message.
type ping struct{ n int }

var msg = &ping{n: 1}

// spawnEcho starts an actor that answers every *ping with the same *ping.
func spawnEcho(tb testing.TB, sys *actor.ActorSystem) *actor.PID {
	tb.Helper()
	pid := sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if m, ok := c.Message().(*ping); ok {
			c.Respond(m)
		}
	}))
	tb.Cleanup(func() {
		if err := sys.Root.PoisonFuture(pid).Wait(); err != nil {
			tb.Errorf("stop echo actor: %v", err)
		}
	})
	return pid
}

// echoFunc is the function target: it returns its message.
func echoFunc(_ context.Context, m any) (any, error) { return m, nil }

// check fails the benchmark unless a call returned msg without error.
func check(tb testing.TB, v any, err error) {
	if err != nil || v != any(msg) {
		tb.Fatalf("got (%v, %v), want (%v, nil)", v, err, msg)
	}
}

// echoKey is an actor system with an echo actor (spawnEcho) and a started
// registry whose key "echo" is that actor as its target.
func echoKey(b *testing.B) (*actor.ActorSystem, *actor.PID, *tripwire.Registry) {
	sys := testkit.NewSystem(b)
	pid := spawnEcho(b, sys)
	reg := testkit.Start(b, sys)
	testkit.Register(b, reg, "echo", tripwire.ActorTarget(pid), tripwire.Settings{CallTimeout: callTimeout})
	return sys, pid, reg
}
