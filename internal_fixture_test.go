package tripwire

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"
	"github.com/tripwire-go/tripwire/internal/system"
)

// inBubbleWithKey runs body in fake time against a registry whose key "k"
// has a function target that answers "ok" and counts its calls; every call
// may take 1 s. Everything is shut down after body.
func inBubbleWithKey(t *testing.T, body func(t *testing.T, sys *actor.ActorSystem, reg *Registry, calls *atomic.Int64)) {
	synctest.Test(t, func(t *testing.T) {
		sys := system.New(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
		reg, err := Start(WithActorSystem(sys))
		require.NoError(t, err)
		var calls atomic.Int64
		require.NoError(t, reg.Register(context.Background(), "k", Func(func(context.Context, any) (any, error) {
			calls.Add(1)
			return "ok", nil
		}), Settings{CallTimeout: time.Second}))

		body(t, sys, reg, &calls)

		require.NoError(t, reg.Shutdown(context.Background()))
		sys.Shutdown()
		time.Sleep(time.Minute)
		synctest.Wait()
	})
}

// breakerOf returns the PID of the breaker serving key now and its process,
// to which a test can send protoactor's system messages.
func breakerOf(t *testing.T, sys *actor.ActorSystem, reg *Registry, key string) (*actor.PID, actor.Process) {
	t.Helper()
	e, err := reg.lookup(key)
	require.NoError(t, err)
	pid := e.PID()
	proc, ok := sys.ProcessRegistry.GetLocal(pid.Id)
	require.True(t, ok, "breaker %s not found", pid.Id)
	return pid, proc
}
