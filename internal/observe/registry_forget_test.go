package observe_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/tripwire-go/tripwire"
)

// idleEcho makes any key a breaker in front of an echo that passivates
// after a second without calls.
func idleEcho(context.Context, string) (tripwire.Target, tripwire.Settings, error) {
	echo := func(_ context.Context, msg any) (any, error) { return msg, nil }
	return tripwire.Func(echo), tripwire.Settings{IdleTimeout: time.Second}, nil
}

func TestAKeyForgottenByMaxKeysLeavesEveryInstrument(t *testing.T) {
	opts := []tripwire.Option{tripwire.WithFactory(idleEcho), tripwire.WithMaxKeys(2)}
	observeBubbleWith(t, opts, func(t *testing.T, r *rig) {
		// Given "made", made by the factory, called and passivated since,
		// next to the rig's "k" in a registry bounded at two keys
		require.NoError(t, r.call("made", msgOK))
		time.Sleep(2 * time.Second)
		synctest.Wait()
		require.Equal(t, []string{"k", "made"}, keysIn(r.collect(t)))

		// When a third key comes, and "made" is forgotten for it
		require.NoError(t, r.call("new", msgOK))
		require.Equal(t, []string{"k", "new"}, r.reg.Keys())

		// Then the next collection reports nothing of "made"
		require.Equal(t, []string{"k", "new"}, keysIn(r.collect(t)))
	})
}

func TestWithLatencyByKeyPutsTheKeyOnTheHistogram(t *testing.T) {
	observeBubbleWith(t, []tripwire.Option{tripwire.WithLatencyByKey()}, func(t *testing.T, r *rig) {
		// Given a registry with WithLatencyByKey, when "k" is called
		require.NoError(t, r.call("k", msgOK))

		// Then tripwire.call.duration has the key
		h := r.collect(t)["tripwire.call.duration"].Data.(metricdata.Histogram[float64])
		require.Len(t, h.DataPoints, 1)
		require.Equal(t, "k", attr(h.DataPoints[0].Attributes, "tripwire.key"))
		require.Equal(t, "success", attr(h.DataPoints[0].Attributes, "tripwire.outcome"))
	})
}

func TestWithLatencyByKeyNeedsAMeterProvider(t *testing.T) {
	_, err := tripwire.Start(tripwire.WithActorSystem(newSystem()), tripwire.WithLatencyByKey())
	require.ErrorIs(t, err, tripwire.ErrInvalidOption)
}
