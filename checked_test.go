package tripwire_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

type order struct{ id int }

// A check that panics on a message refuses it, as a check's error would:
// the caller gets ErrInvalidMessage, the target is not called and the call
// counts neither way. It runs on the caller's goroutine, so a panic that got
// out would end the caller's program.
func TestACheckThatPanicsRefusesTheMessage(t *testing.T) {
	reg, _ := start(t)
	var calls atomic.Int64
	target := tripwire.Func(func(_ context.Context, msg any) (any, error) {
		calls.Add(1)
		return msg, nil
	})
	check := func(msg any) error {
		if msg.(*order).id < 0 { // panics for a message of another type
			return errors.New("negative id")
		}
		return nil
	}
	require.NoError(t, reg.Register(context.Background(), "k", tripwire.Checked(target, check), tripwire.Settings{Threshold: 1}))

	// When a caller sends a message the check cannot handle
	_, err := reg.Call(context.Background(), "k", "not an order")

	// Then it is refused, and nothing counted
	require.ErrorIs(t, err, tripwire.ErrInvalidMessage)
	require.ErrorContains(t, err, "panicked")
	require.Zero(t, calls.Load())
	snap, err := reg.Snapshot(context.Background(), "k")
	require.NoError(t, err)
	require.Equal(t, state.Closed, snap.State)
	require.Zero(t, snap.Stats.Total.Calls)

	// And a message it passes is called as usual
	v, err := reg.Call(context.Background(), "k", &order{id: 1})
	require.NoError(t, err)
	require.Equal(t, &order{id: 1}, v)
}
