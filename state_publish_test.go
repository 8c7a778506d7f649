package tripwire_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

func TestStateIsOpenRightAfterTheTrippingCallReturns(t *testing.T) {
	reg, _ := start(t)
	stale := 0
	const n = 2000
	for i := range n {
		key := fmt.Sprint("k", i)
		target := newScripted()
		target.mode.Store(fail)
		require.NoError(t, reg.Register(context.Background(), key, target.target(), tripwire.Settings{Threshold: 1}))
		_, err := reg.Call(context.Background(), key, "x")
		require.ErrorIs(t, err, errBoom)
		if st, _ := reg.State(key); st != state.Open {
			stale++
		}
	}
	require.Zero(t, stale, "State() was not open right after the tripping call returned, %d of %d times", stale, n)
}
