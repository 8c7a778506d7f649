package test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestProbeNowHalfOpensBeforeTheTimer(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		var mu sync.Mutex
		var reasons []state.Reason
		defer e.Reg.Subscribe(func(tr state.Transition) {
			mu.Lock()
			defer mu.Unlock()
			reasons = append(reasons, tr.Reason)
		})()
		// Given a breaker opened by one failure, with a minute to wait
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "db", s.Func(nil), tripwire.Settings{Threshold: 1, OpenTimeout: time.Minute})
		_, err := e.Reg.Call(ctx, "db", tripwiretest.Op{Label: "trip", Fail: true})
		require.ErrorIs(t, err, tripwiretest.ErrInjected)
		testkit.WantCircuit(t, e.Reg, "db", state.Open, 1)

		// When it is told the dependency may be back, a second later
		time.Sleep(time.Second)
		require.NoError(t, e.Reg.ProbeNow(context.Background(), "db"))

		// Then it half-opens at once, and the next call is its probe and closes it
		testkit.WantCircuit(t, e.Reg, "db", state.HalfOpen, 1)
		v, err := e.Reg.Call(ctx, "db", tripwiretest.Op{Label: "probe"})
		require.NoError(t, err)
		require.Equal(t, tripwiretest.Answer("probe"), v)
		testkit.WantCircuit(t, e.Reg, "db", state.Closed, 0)

		// and the recovery timer it had armed, firing later, changes nothing
		time.Sleep(time.Minute)
		synctest.Wait()
		testkit.WantCircuit(t, e.Reg, "db", state.Closed, 0)
		mu.Lock()
		defer mu.Unlock()
		require.Equal(t, []state.Reason{state.ReasonThreshold, state.ReasonProbeNow, state.ReasonProbeSucceeded}, reasons)
	})
}

func TestProbeNowLeavesOtherCircuitsAlone(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, reg *tripwire.Registry)
		want  state.State
	}{
		{"closed", func(*testing.T, *tripwire.Registry) {}, state.Closed},
		{"forced open", func(t *testing.T, reg *tripwire.Registry) {
			require.NoError(t, reg.ForceOpen(context.Background(), "db"))
		}, state.Open},
		{"half-open", func(t *testing.T, reg *tripwire.Registry) {
			_, err := reg.Call(context.Background(), "db", tripwiretest.Op{Fail: true})
			require.ErrorIs(t, err, tripwiretest.ErrInjected)
			require.NoError(t, reg.ProbeNow(context.Background(), "db"))
		}, state.HalfOpen},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
				// Given a circuit that is not plainly open
				var s tripwiretest.Script
				testkit.Register(t, e.Reg, "db", s.Func(nil), tripwire.Settings{Threshold: 1, OpenTimeout: time.Minute})
				tc.setup(t, e.Reg)
				before := testkit.Snapshot(t, e.Reg, "db")

				// When it is told to probe now
				require.NoError(t, e.Reg.ProbeNow(context.Background(), "db"))

				// Then nothing changes
				after := testkit.Snapshot(t, e.Reg, "db")
				require.Equal(t, tc.want, after.State)
				require.Equal(t, before, after)
				_, err := e.Reg.Call(context.Background(), "db", tripwiretest.Op{})
				if tc.want == state.Open {
					require.True(t, errors.Is(err, tripwire.ErrOpen), "err = %v", err)
				}
			})
		})
	}
}
