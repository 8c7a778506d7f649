package actor

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/state"
)

// Regression: the check that gives a quiet key's window back armed itself
// again every StatsWindow for as long as the key was open, half-open or
// forced, so a key held open for a day was woken 8,640 times for nothing.
// A key that is not closed keeps its window (it holds the failure that
// opened it) without being woken for it; once it closes, it gives the
// window back a window after its last call.
func TestAQuietKeyThatIsNotClosedIsNotWokenForItsWindow(t *testing.T) {
	for _, c := range []struct {
		name string
		hold func(r *rig)
	}{
		{"tripped, then half-open", func(r *rig) { r.trip() }},
		{"forced open", func(r *rig) {
			require.NoError(r.t, r.call("ok").Err)
			r.control(state.ForceOpen)
		}},
		{"forced closed", func(r *rig) {
			require.NoError(r.t, r.call("ok").Err)
			r.control(state.ForceClose)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			inBubble(t, func(t *testing.T, r *rig) {
				// Given a key that is not closed (or not by itself), quiet
				// since its last call
				c.hold(r)
				require.NotZero(t, r.cfg.Shared.Idle.Len(), "the check of its window is armed")

				// When it stays so for a day
				// Then once its calls' deadline ticks (callTimeout) are
				// gone, nothing is armed to wake it
				for range 2 {
					time.Sleep(callTimeout + state.StatsWindow)
					synctest.Wait()
					require.Zero(t, r.cfg.Shared.Idle.Len(), "a quiet key that is not closed is woken for its window")
				}
				time.Sleep(24 * time.Hour)
				synctest.Wait()
				require.Zero(t, r.cfg.Shared.Idle.Len())
				// And it keeps its window
				require.NotZero(t, r.cfg.Cell.flags.Load()&flagWindow, "its window was given back")

				// And once closed, it gives its window back a window later
				r.control(state.Reset)
				time.Sleep(state.StatsWindow + time.Second)
				synctest.Wait()
				require.Zero(t, r.cfg.Cell.flags.Load()&flagWindow, "its window was not given back")
				require.NotZero(t, r.fullSnapshot().Stats.Total.Calls)
			})
		})
	}
}
