package tripwire_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/system"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// newSystem returns an actor system whose dead-letter throttle goroutine ends
// quickly, so goleak and synctest see no goroutine left behind.
func newSystem() *actor.ActorSystem {
	return system.New(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
}

// start returns a registry on a fresh actor system; both are shut down when
// the test ends. Use it in real-time tests only.
func start(t *testing.T) (*tripwire.Registry, *actor.ActorSystem) {
	t.Helper()
	sys := testkit.NewSystem(t)
	return testkit.Start(t, sys), sys
}

var errBoom = errors.New("boom")

// endBubble shuts reg and sys down at the end of a synctest bubble, and
// lets protoactor's throttle goroutine end, as the bubble requires.
func endBubble(t *testing.T, reg *tripwire.Registry, sys *actor.ActorSystem) {
	t.Helper()
	require.NoError(t, reg.Shutdown(context.Background()))
	sys.Shutdown()
	time.Sleep(time.Minute)
	synctest.Wait()
}

// Target modes of a scripted function target.
const (
	succeed int32 = iota
	fail
	hang // blocks until released, ignoring its context
)

// scripted is a function target whose behaviour the test switches, and which
// counts its invocations.
type scripted struct {
	calls   atomic.Int64
	mode    atomic.Int32
	release chan struct{}
}

func newScripted() *scripted { return &scripted{release: make(chan struct{})} }

func (s *scripted) target() tripwire.Target {
	return tripwire.Func(func(_ context.Context, msg any) (any, error) {
		s.calls.Add(1)
		switch s.mode.Load() {
		case fail:
			return nil, errBoom
		case hang:
			<-s.release
			return nil, errBoom
		}
		return fmt.Sprintf("ok %v", msg), nil
	})
}

// unblock lets every hung invocation return; Shutdown waits for them.
func (s *scripted) unblock() { close(s.release) }

// spawnEcho starts an actor that answers every user message with the message
// itself and counts the messages it got.
func spawnEcho(sys *actor.ActorSystem, calls *atomic.Int64) *actor.PID {
	return sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		switch c.Message().(type) {
		case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
			return
		}
		calls.Add(1)
		c.Respond(c.Message())
	}))
}

// ownPIDs finds the registry's supervisor and one of its breakers in the
// actor system's process table (their ids start with "tripwire-").
func ownPIDs(t *testing.T, sys *actor.ActorSystem) (supervisor, breaker *actor.PID) {
	t.Helper()
	for _, bucket := range sys.ProcessRegistry.LocalPIDs.LocalPIDs {
		for _, id := range bucket.Keys() {
			switch {
			case !strings.HasPrefix(id, "tripwire-"):
			case strings.Contains(id, "/"):
				breaker = sys.NewLocalPID(id)
			default:
				supervisor = sys.NewLocalPID(id)
			}
		}
	}
	require.NotNil(t, supervisor, "no supervisor in the process registry")
	require.NotNil(t, breaker, "no breaker in the process registry")
	return supervisor, breaker
}
