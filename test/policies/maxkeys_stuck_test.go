package policies

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// TestAKeyWhoseTargetHoldsASlotIsNotForgotten: a target that ignores its
// context keeps its MaxInFlight slot past its call's answer; its key must
// stay, or the key made again would run MaxInFlight calls more in it.
func TestAKeyWhoseTargetHoldsASlotIsNotForgotten(t *testing.T) {
	var release chan struct{} // made in the bubble, so the target blocks durably
	var running, most atomic.Int64
	stuck := func(context.Context, any) (any, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release // ignores its context
		return "late", nil
	}
	factory := func(context.Context, string) (tripwire.Target, tripwire.Settings, error) {
		return tripwire.Func(stuck), tripwire.Settings{
			IdleTimeout: time.Second, CallTimeout: 100 * time.Millisecond, MaxInFlight: 1}, nil
	}
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		release = make(chan struct{})
		// Given key a, whose one call timed out and whose target still
		// runs it, idle for longer than its IdleTimeout
		_, err := call(e.Reg, "a", okOp)
		require.ErrorIs(t, err, tripwire.ErrTimeout)
		advance(3 * time.Second)

		// When another key comes, in a registry bounded at one key
		_, err = call(e.Reg, "b", okOp)

		// Then a is not forgotten for it: b is refused
		require.ErrorIs(t, err, tripwire.ErrTooManyKeys)
		require.Equal(t, []string{"a"}, e.Reg.Keys())
		// and a's next call finds its slot taken, and never runs
		_, err = call(e.Reg, "a", okOp)
		require.ErrorIs(t, err, tripwire.ErrOverloaded)
		require.EqualValues(t, 1, most.Load())

		// When the target ends at last, and a is idle a while
		close(release)
		advance(3 * time.Second)

		// Then a passivated, and is forgotten for b
		v, err := call(e.Reg, "b", okOp)
		require.NoError(t, err)
		require.Equal(t, "late", v)
		require.Equal(t, []string{"b"}, e.Reg.Keys())
	}, tripwire.WithFactory(factory), tripwire.WithMaxKeys(1))
}
