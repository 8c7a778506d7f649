package testkit

import (
	"context"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/hook"
	"github.com/tripwire-go/tripwire/internal/system"
)

// NewSystem returns an actor system that logs nothing and whose dead-letter
// throttle goroutine ends quickly, so goleak and synctest see nothing left
// behind. It is shut down when tb ends.
func NewSystem(tb testing.TB) *actor.ActorSystem {
	tb.Helper()
	sys := system.New(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
	tb.Cleanup(sys.Shutdown)
	return sys
}

// Start starts a registry on sys with opts, and shuts it down when tb ends
// (cleanups run last-in first-out: before a system from NewSystem stops).
func Start(tb testing.TB, sys *actor.ActorSystem, opts ...tripwire.Option) *tripwire.Registry {
	tb.Helper()
	reg, err := tripwire.Start(append([]tripwire.Option{tripwire.WithActorSystem(sys)}, opts...)...)
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

// Register registers key, failing the test at once if that fails.
func Register(tb testing.TB, reg *tripwire.Registry, key string, target tripwire.Target, s tripwire.Settings) {
	tb.Helper()
	if err := reg.Register(context.Background(), key, target, s); err != nil {
		tb.Fatalf("Register(%q): %v", key, err)
	}
}

// Workers is the number of reg's worker goroutines running function
// targets, busy or idle (see internal/hook).
func Workers(reg *tripwire.Registry) int { return hook.Workers(reg) }

// HotCalls makes n successes a second make a key hot (its workers answer
// its quiet successes themselves: the hot lane), until tb ends. Call it
// before the registry starts, and not in a parallel test.
func HotCalls(tb testing.TB, n uint32) {
	tb.Cleanup(hook.HotCalls(n))
}
