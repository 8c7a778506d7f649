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

// newSystem returns an actor system whose dead-letter throttle goroutine
// ends, and stops it when the benchmark ends.
func newSystem(tb testing.TB) *actor.ActorSystem {
	tb.Helper()
	sys := tripwire.NewActorSystem(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
	tb.Cleanup(sys.Shutdown)
	return sys
}

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

// newRegistry starts a registry on sys and shuts it down when the benchmark
// ends (cleanups run last-in first-out: before the system stops).
func newRegistry(tb testing.TB, sys *actor.ActorSystem) *tripwire.Registry {
	tb.Helper()
	reg, err := tripwire.Start(sys)
	if err != nil {
		tb.Fatalf("Start: %v", err)
	}
	tb.Cleanup(func() {
		if err := reg.Shutdown(context.Background()); err != nil {
			tb.Errorf("Shutdown: %v", err)
		}
	})
	return reg
}

func register(tb testing.TB, reg *tripwire.Registry, key string, t tripwire.Target, s tripwire.Settings) {
	tb.Helper()
	if err := reg.Register(key, t, s); err != nil {
		tb.Fatalf("Register(%q): %v", key, err)
	}
}

// echoFunc is the function target: it returns its message.
func echoFunc(_ context.Context, m any) (any, error) { return m, nil }

// check fails the benchmark unless a call returned msg without error.
func check(tb testing.TB, v any, err error) {
	if err != nil || v != any(msg) {
		tb.Fatalf("got (%v, %v), want (%v, nil)", v, err, msg)
	}
}
