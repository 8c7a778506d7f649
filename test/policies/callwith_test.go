package policies

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestCallWithMakesEachKeyOnceWithItsOwnFactory(t *testing.T) {
	registry, given := newFactory(), newFactory()
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a registry with a factory of its own, and another factory
		// When 100 callers call the unknown key "host" with the other one
		start := make(chan struct{})
		rs := make([]<-chan testkit.Result, 100)
		for i := range rs {
			rs[i] = testkit.Go(func() (any, error) {
				<-start
				return e.Reg.CallWith(context.Background(), "host", okOp, given.build)
			})
		}
		close(start)

		// Then all succeed, answered by the target the given factory made
		for _, ch := range rs {
			r := testkit.Await(t, ch)
			wantOK(t, "first call", r.V, r.Err)
		}
		require.EqualValues(t, 1, given.runs.Load(), "given factory runs")
		require.EqualValues(t, 100, given.target.Counts().Calls)
		require.Zero(t, registry.runs.Load(), "the registry's factory ran")
		// When the key exists, CallWith calls it without making it again
		_, err := e.Reg.CallWith(context.Background(), "host", failOp, given.build)
		require.ErrorIs(t, err, tripwiretest.ErrInjected)
		require.EqualValues(t, 1, given.runs.Load())
		// and the key has the given factory's settings (Threshold 2)
		_, _ = e.Reg.CallWith(context.Background(), "host", failOp, given.build)
		wantState(t, e.Reg, "host", state.Open)
	}, tripwire.WithFactory(registry.build))
}

func TestCallWithFactoryFailureRegistersNothing(t *testing.T) {
	f := newFactory()
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a factory that fails
		f.failWith("error")

		// When a caller calls an unknown key with it
		_, err := e.Reg.CallWith(context.Background(), "host", okOp, f.build)

		// Then the caller gets the factory's error, and no key was made
		require.ErrorIs(t, err, errFactory)
		require.Empty(t, e.Reg.Keys())

		// and once the factory works again, the next call makes the key
		f.fail.Store(nil)
		time.Sleep(time.Second)
		_, err = e.Reg.CallWith(context.Background(), "host", tripwiretest.Op{}, f.build)
		require.NoError(t, err)
		require.Equal(t, []string{"host"}, e.Reg.Keys())
	})
}
