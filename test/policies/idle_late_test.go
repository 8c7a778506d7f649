package policies

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

// TestALateOutcomeDoesNotWakeAPassivatedKey: a target that ignores its
// context returns long after its call timed out and its key passivated;
// its outcome changes nothing, so it must not start the key's breaker again
// (at a million keys, each such return would cost a breaker for
// IdleTimeout).
func TestALateOutcomeDoesNotWakeAPassivatedKey(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a key whose one call timed out while its target runs on,
		// ignoring its context, for 5 s
		late := tripwire.Func(func(context.Context, any) (any, error) {
			time.Sleep(5 * time.Second)
			return "late", nil
		})
		testkit.Register(t, e.Reg, "k", late, tripwire.Settings{
			IdleTimeout: time.Second, CallTimeout: 100 * time.Millisecond})
		_, err := call(e.Reg, "k", okOp)
		require.ErrorIs(t, err, tripwire.ErrTimeout)
		// and the key passivated since
		advance(2 * time.Second)
		wantBreakerActors(t, e, "k", 0)

		// When the target returns at last
		advance(3100 * time.Millisecond) // (5.1 s: a breaker woken at 5 s would be up till 6 s)

		// Then the key sleeps on, and wakes for its next call as ever
		wantBreakerActors(t, e, "k", 0)
		s := testkit.Snapshot(t, e.Reg, "k")
		require.Equal(t, state.Closed, s.State)
		require.Zero(t, s.InFlight)
	})
}
