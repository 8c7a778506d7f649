package actor

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/state"
)

func TestAQuietKeyGivesItsWindowBackAndKeepsItsTotals(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a key called twice: its window covers its short life
		require.NoError(t, r.call("ok").Err)
		require.ErrorIs(t, r.call("fail").Err, errBoom)
		require.Less(t, r.fullSnapshot().Stats.Window, time.Second)

		// When it is quiet for a window (its drain check comes then)
		time.Sleep(state.StatsWindow + time.Second)
		synctest.Wait()

		// Then its window is gone (a quiet key's covers StatsWindow, empty),
		// its totals stay
		st := r.fullSnapshot().Stats
		require.Equal(t, state.StatsWindow, st.Window)
		require.Equal(t, state.Counts{Calls: 2, Successes: 1, Failures: 1}, st.Total)
		require.Equal(t, state.Counts{}, st.Recent)
		// And reading it made none (one made then would cover 5 s now)
		time.Sleep(5 * time.Second)
		require.Equal(t, state.StatsWindow, r.fullSnapshot().Stats.Window)
		// And a new call starts a new window
		require.NoError(t, r.call("ok").Err)
		st = r.fullSnapshot().Stats
		require.Equal(t, state.Counts{Calls: 1, Successes: 1}, st.Recent)
		require.Less(t, st.Window, time.Second)
		require.EqualValues(t, 3, st.Total.Calls)
	})
}

func TestCallersCountsSurviveTheWindowsDrop(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given calls refused as overloaded by callers, counted and folded
		require.NoError(t, r.call("ok").Err)
		r.cfg.Cell.CountOverloaded()
		r.cfg.Cell.CountOverloaded()
		require.EqualValues(t, 2, r.fullSnapshot().Stats.Recent.Overloaded)
		// And one more after the fold, just before the window is dropped
		time.Sleep(state.StatsWindow - time.Second)
		r.cfg.Cell.CountOverloaded()
		time.Sleep(21 * time.Second) // quiet since: the drain at 20 s drops the window
		synctest.Wait()
		// Then every one of them is in the totals, none twice, and one
		// counted after the drop is recent
		r.cfg.Cell.CountOverloaded()
		st := r.fullSnapshot().Stats
		require.EqualValues(t, 4, st.Total.Overloaded)
		require.EqualValues(t, 1, st.Recent.Overloaded)
	})
}

func TestAFloodOfRejectionsIsCountedExactlyOnStripes(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given an open circuit
		r.trip()
		cell := &r.cfg.Cell
		rejectMany := func(callers, each int) {
			var wg sync.WaitGroup
			for range callers {
				wg.Go(func() {
					for range each {
						if cell.Reject() == nil {
							t.Error("not rejected")
							return
						}
					}
				})
			}
			wg.Wait()
		}
		// When 4 callers are rejected 10,000 times each
		rejectMany(4, 10_000)
		// Then every one counts, once (on the Cell's line, or on stripes if
		// they contended for it)
		require.EqualValues(t, 40_000, r.fullSnapshot().Stats.Total.Rejected)

		// And once callers lost the line to each other often enough, the
		// key counts on stripes, as exactly
		for range contendedAt {
			cell.rejectContended(cell.rejection.Load())
		}
		require.NotZero(t, cell.flags.Load()&flagFlood, "flooded")
		rejectMany(4, 10_000)
		require.EqualValues(t, 80_000+contendedAt, r.fullSnapshot().Stats.Total.Rejected)

		// And after the circuit half-opens (a new open period, the stripes
		// carry over) the count goes on
		time.Sleep(openTimeout)
		synctest.Wait()
		require.ErrorIs(t, r.call("fail").Err, errBoom) // the probe fails: open again
		require.NotNil(t, cell.rejection.Load().stripes.Load(), "the stripes carried over")
		rejectMany(1, 1000)
		require.EqualValues(t, 81_000+contendedAt, r.fullSnapshot().Stats.Total.Rejected)
	})
}

func TestTotalsKeepWhatTheWindowLetsGo(t *testing.T) {
	// Given a key with a success every second for 26 s, a failure in the
	// first and the last, and callers' rejections counted in between
	var c Cell
	t0 := time.Now()
	for i := range 26 {
		now := t0.Add(time.Duration(i) * time.Second)
		s, w := c.window(now)
		s.record(w, state.TallySuccess, now, time.Millisecond, true, &c)
		if i == 0 || i == 25 {
			s.record(w, state.TallyFailure, now, time.Millisecond, true, &c)
		}
		if i == 12 {
			c.rejected.Add(7)
		}
	}

	// Then the window holds the last ten seconds, and the totals every call,
	// those whose buckets served again since included
	st := c.stats.Load().report(t0.Add(25*time.Second+500*time.Millisecond), &c)
	require.Equal(t, state.Counts{Calls: 11, Successes: 10, Failures: 1}, st.Recent)
	require.Equal(t, state.Counts{Calls: 35, Successes: 26, Failures: 2, Rejected: 7}, st.Total)
}
