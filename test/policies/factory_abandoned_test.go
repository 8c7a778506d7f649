package policies

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// TestACallerAfterEveryWaiterLeftGetsAFactoryOfItsOwn: when the last caller
// waiting for a factory gives up, the factory's context ends, and it may
// take a while to return; a caller that comes meanwhile is served by a
// factory run of its own, not failed by the cancelled one.
func TestACallerAfterEveryWaiterLeftGetsAFactoryOfItsOwn(t *testing.T) {
	var runs atomic.Int64
	factory := func(ctx context.Context, _ string) (tripwire.Target, tripwire.Settings, error) {
		if runs.Add(1) == 1 { // the first run waits to be cancelled, then takes 10 ms to end
			<-ctx.Done()
			time.Sleep(10 * time.Millisecond)
			return nil, tripwire.Settings{}, context.Cause(ctx)
		}
		return tripwire.Func(func(context.Context, any) (any, error) { return "made", nil }), tripwire.Settings{}, nil
	}
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a caller that gives up after 100 ms on a key being made
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := e.Reg.Call(ctx, "k", okOp)
		require.ErrorIs(t, err, tripwire.ErrTimeout)

		// When another caller comes while the cancelled factory returns
		advance(5 * time.Millisecond)
		v, err := call(e.Reg, "k", okOp)

		// Then it is served by a factory run of its own
		require.NoError(t, err)
		require.Equal(t, "made", v)
		require.EqualValues(t, 2, runs.Load())
	}, tripwire.WithFactory(factory))
}
