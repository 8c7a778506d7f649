package tripwire_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

var errNotFound = errors.New("not found")

// Regression: Update reported the key's settings without its classifier
// and IgnoreTargetDown, so a read-modify-write of Snapshot().Settings (the
// way to change one field) put the key back on the default classifier.
func TestUpdateKeepsWhatItDoesNotChange(t *testing.T) {
	reg, _ := start(t)
	ctx := context.Background()
	notFound := func(_ context.Context, _ any) (any, error) { return nil, errNotFound }
	isFailure := func(_ any, err error) bool { return err != nil && !errors.Is(err, errNotFound) }
	// Given a key whose classifier does not count "not found", and which
	// ignores its target going down
	require.NoError(t, reg.Register(context.Background(), "k", tripwire.Func(notFound),
		tripwire.Settings{Threshold: 1, IsFailure: isFailure, IgnoreTargetDown: true}))

	// When its threshold is changed the usual way, twice: from its own
	// settings as a snapshot shows them
	for _, threshold := range []int{2, 1} {
		snap, err := reg.Snapshot(context.Background(), "k")
		require.NoError(t, err)
		s := snap.Settings
		require.NotNil(t, s.IsFailure, "the classifier, before the update to %d", threshold)
		require.True(t, s.IgnoreTargetDown, "IgnoreTargetDown, before the update to %d", threshold)
		s.Threshold = threshold
		require.NoError(t, reg.Update(context.Background(), "k", s))
	}

	// Then the key still classifies as it did: "not found" never opens it
	for range 3 {
		_, err := reg.Call(ctx, "k", "x")
		require.ErrorIs(t, err, errNotFound)
	}
	snap, err := reg.Snapshot(context.Background(), "k")
	require.NoError(t, err)
	require.Equal(t, state.Closed, snap.State)
	require.Equal(t, 1, snap.Settings.Threshold)
	require.NotNil(t, snap.Settings.IsFailure)
	require.True(t, snap.Settings.IgnoreTargetDown)
}
