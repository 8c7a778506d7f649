package actor

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
)

func TestAQuietKeyGivesItsWindowBackAndKeepsItsTotals(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a key called twice: its window covers its short life
		require.NoError(t, r.call("ok").Err)
		require.ErrorIs(t, r.call("fail").Err, errBoom)
		require.Less(t, r.fullSnapshot().Stats.Window, time.Second)

		// When it is quiet for a window (its drain check comes then)
		time.Sleep(StatsWindow + time.Second)
		synctest.Wait()

		// Then its window is gone (a quiet key's covers StatsWindow, empty),
		// its totals stay
		st := r.fullSnapshot().Stats
		require.Equal(t, StatsWindow, st.Window)
		require.Equal(t, Counts{Calls: 2, Successes: 1, Failures: 1}, st.Total)
		require.Equal(t, Counts{}, st.Recent)
		// And reading it made none (one made then would cover 5 s now)
		time.Sleep(5 * time.Second)
		require.Equal(t, StatsWindow, r.fullSnapshot().Stats.Window)
		// And a new call starts a new window
		require.NoError(t, r.call("ok").Err)
		st = r.fullSnapshot().Stats
		require.Equal(t, Counts{Calls: 1, Successes: 1}, st.Recent)
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
		time.Sleep(StatsWindow - time.Second)
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
		// When 4 callers are rejected 10,000 times each, past the count at
		// which the key moves onto stripes
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for range 10_000 {
					if cell.Reject() == nil {
						t.Error("not rejected")
						return
					}
				}
			})
		}
		wg.Wait()
		// Then every one counts, once
		require.NotZero(t, cell.flags.Load()&flagFlood, "flooded")
		require.EqualValues(t, 40_000, r.fullSnapshot().Stats.Total.Rejected)

		// And after the circuit half-opens (a new open period, the stripes
		// carry over) the count goes on
		time.Sleep(openTimeout)
		synctest.Wait()
		require.ErrorIs(t, r.call("fail").Err, errBoom) // the probe fails: open again
		for range 1000 {
			require.NotNil(t, cell.Reject())
		}
		require.EqualValues(t, 41_000, r.fullSnapshot().Stats.Total.Rejected)
	})
}
