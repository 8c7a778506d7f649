package tripwire_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

func TestSnapshotsPicksKeysByPrefixStateAndSleep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sys := newSystem()
		reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
		require.NoError(t, err)
		ok := tripwire.Func(func(context.Context, any) (any, error) { return "ok", nil })
		for i := range 200 {
			require.NoError(t, reg.Register(context.Background(), fmt.Sprintf("host-%03d", i), ok, tripwire.Settings{}))
		}
		require.NoError(t, reg.Register(context.Background(), "tenant-a", ok, tripwire.Settings{IdleTimeout: time.Second}))
		require.NoError(t, reg.ForceOpen(context.Background(), "host-007"))
		require.NoError(t, reg.ForceOpen(context.Background(), "host-150"))
		time.Sleep(2 * time.Second) // tenant-a passivates
		synctest.Wait()

		list := func(f tripwire.Filter) []string { return snapshotKeys(t, reg, f) }
		// Every live key, in batches; the sleeping one only if asked for
		require.Len(t, list(tripwire.Filter{}), 200)
		require.Len(t, list(tripwire.Filter{Passivated: true}), 201)
		require.Equal(t, []string{"host-007", "host-150"}, list(tripwire.Filter{States: []state.State{state.Open}}))
		require.Equal(t, []string{"host-150"}, list(tripwire.Filter{Prefix: "host-1", States: []state.State{state.Open}}))
		require.Len(t, list(tripwire.Filter{Prefix: "host-1"}), 100)

		// A sleeping key is reported without waking it
		var sleeping tripwire.Snapshot
		require.NoError(t, reg.Snapshots(context.Background(), tripwire.Filter{Prefix: "tenant-", Passivated: true},
			func(s tripwire.Snapshot) bool { sleeping = s; return true }))
		require.True(t, sleeping.Passivated)
		require.Equal(t, time.Second, sleeping.Settings.IdleTimeout)
		synctest.Wait()
		again := 0
		require.NoError(t, reg.Snapshots(context.Background(), tripwire.Filter{Prefix: "tenant-", Passivated: true},
			func(s tripwire.Snapshot) bool { again++; require.True(t, s.Passivated); return true }))
		require.Equal(t, 1, again)

		// fn stops it early
		n := 0
		require.NoError(t, reg.Snapshots(context.Background(), tripwire.Filter{}, func(tripwire.Snapshot) bool { n++; return n < 3 }))
		require.Equal(t, 3, n)

		// Bad input is refused
		require.ErrorIs(t, reg.Snapshots(nil, tripwire.Filter{}, func(tripwire.Snapshot) bool { return true }), tripwire.ErrNilContext) //nolint:staticcheck // nil on purpose
		require.ErrorIs(t, reg.Snapshots(context.Background(), tripwire.Filter{}, nil), tripwire.ErrInvalidOption)
		require.ErrorIs(t, reg.Snapshots(context.Background(), tripwire.Filter{States: []state.State{7}}, func(tripwire.Snapshot) bool { return true }), tripwire.ErrInvalidOption)
		cancelled, cancel := context.WithCancel(context.Background())
		cancel()
		require.ErrorIs(t, reg.Snapshots(cancelled, tripwire.Filter{}, func(tripwire.Snapshot) bool { return true }), context.Canceled)

		require.NoError(t, reg.Shutdown(context.Background()))
		require.ErrorIs(t, reg.Snapshots(context.Background(), tripwire.Filter{}, func(tripwire.Snapshot) bool { return true }), tripwire.ErrShutdown)
		endBubble(t, reg, sys) // (a second Shutdown returns nil)
	})
}

func TestSnapshotsStopsWhenItsContextEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given 200 keys awake and 200 asleep
		sys := newSystem()
		reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
		require.NoError(t, err)
		defer endBubble(t, reg, sys)
		ok := tripwire.Func(func(context.Context, any) (any, error) { return "ok", nil })
		for i := range 200 {
			require.NoError(t, reg.Register(context.Background(), fmt.Sprintf("awake-%03d", i), ok, tripwire.Settings{}))
			require.NoError(t, reg.Register(context.Background(), fmt.Sprintf("asleep-%03d", i), ok, tripwire.Settings{IdleTimeout: time.Second}))
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		for _, prefix := range []string{"awake-", "asleep-"} {
			// When a listing's context is cancelled by its first callback
			ctx, cancel := context.WithCancel(context.Background())
			calls := 0
			err := reg.Snapshots(ctx, tripwire.Filter{Prefix: prefix, Passivated: true}, func(tripwire.Snapshot) bool {
				calls++
				cancel()
				return true
			})
			cancel()
			// Then it stops there, and says why
			require.ErrorIs(t, err, context.Canceled, prefix)
			require.LessOrEqual(t, calls, 1, prefix)
		}
	})
}

func TestSnapshotsPicksKeysByTheirTargetsAddress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given an actor target, a function target and an open actor target
		sys := newSystem()
		reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
		require.NoError(t, err)
		echo := spawnEcho(sys, nil)
		require.NoError(t, reg.Register(context.Background(), "actor", tripwire.ActorTarget(echo), tripwire.Settings{}))
		require.NoError(t, reg.Register(context.Background(), "open-actor", tripwire.ActorTarget(echo), tripwire.Settings{}))
		require.NoError(t, reg.ForceOpen(context.Background(), "open-actor"))
		require.NoError(t, reg.Register(context.Background(), "func", tripwire.Func(func(context.Context, any) (any, error) { return "ok", nil }), tripwire.Settings{}))
		list := func(f tripwire.Filter) []string { return snapshotKeys(t, reg, f) }
		// When they are picked by an address, Then only the actors there are
		require.Equal(t, []string{"actor", "open-actor"}, list(tripwire.Filter{Address: echo.Address}))
		require.Equal(t, []string{"open-actor"}, list(tripwire.Filter{Address: echo.Address, States: []state.State{state.Open}}))
		require.Empty(t, list(tripwire.Filter{Address: "10.0.0.7:7070"}))
		require.Len(t, list(tripwire.Filter{}), 3)
		endBubble(t, reg, sys)
	})
}

// snapshotKeys is the keys Snapshots picks with f, sorted.
func snapshotKeys(t *testing.T, reg *tripwire.Registry, f tripwire.Filter) []string {
	var keys []string
	require.NoError(t, reg.Snapshots(context.Background(), f, func(s tripwire.Snapshot) bool {
		keys = append(keys, s.Key)
		return true
	}))
	slices.Sort(keys)
	return keys
}
