package actor

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/state"
)

// control applies a control event and waits for the breaker's reply.
func (r *rig) control(ev state.EventKind) Snapshot {
	reply := make(chan Report, 1)
	r.sys.Root.Send(r.pid, &Control{Event: ev, Reply: reply})
	return (<-reply).Snapshot
}

// Regression: a breaker told the same open period by RetryAt alone, and a
// half-open circuit whose probes are out and a forced-open one both have
// none, so ForceOpen while probing left callers with the half-open
// period's error, its cause the failure that had opened it, where a forced
// circuit's has none.
func TestForceOpenWhileProbingPublishesTheForcedRejection(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a half-open circuit whose one probe is still running
		r.trip()
		time.Sleep(openTimeout + time.Millisecond)
		gate := make(later)
		probe := r.send(gate)
		synctest.Wait()
		half := r.cfg.Cell.openError()
		require.NotNil(t, half, "the probe holds the half-open circuit's slot")
		require.ErrorIs(t, half.Cause, errBoom)

		// When it is forced open
		require.Equal(t, state.Open, r.control(state.ForceOpen).State)

		// Then callers get the forced circuit's error, with no cause
		forced := r.cfg.Cell.openError()
		require.NotNil(t, forced)
		require.NotSame(t, half, forced)
		require.NoError(t, forced.Cause)
		require.True(t, forced.RetryAt.IsZero(), "a forced circuit has no time to retry")

		close(gate)
		require.NoError(t, answer(probe).Err)
		require.Same(t, forced, r.cfg.Cell.openError(), "the old probe's outcome changes nothing")
	})
}
