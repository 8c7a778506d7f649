package observe_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/tripwire-go/tripwire/state"
)

// Regression: Shutdown stopped each subscriber before it had drained its
// buffer, so a transition already handed to a slow subscriber was never
// delivered, although Subscribe promises every later transition.
func TestShutdownDeliversTransitionsThatHappenedBeforeIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a subscriber still busy with the trip when the circuit half-opens
		r := newRig(t)
		gate := make(chan struct{})
		var rec recorder
		r.reg.Subscribe(func(tr state.Transition) {
			rec.add(tr)
			<-gate
		})
		r.halfOpen(t, "k", r.trip(t, "k"))
		require.Len(t, rec.all(), 1)

		// When the registry shuts down, and the subscriber then finishes
		done := make(chan error, 1)
		go func() { done <- r.reg.Shutdown(context.Background()) }()
		synctest.Wait()
		close(gate)
		require.NoError(t, <-done)

		// Then it was given both transitions before Shutdown returned
		require.Len(t, rec.all(), 2, "the half-open that happened before Shutdown was dropped")
		r.sys.Shutdown()
		time.Sleep(time.Minute)
		synctest.Wait()
	})
}
