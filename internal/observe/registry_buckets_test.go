package observe_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/tripwire-go/tripwire"
)

// Regression: tripwire.call.duration is recorded in seconds; with the SDK's
// default boundaries (0, 5, 10, 25, ... 10000, meant for milliseconds) every
// call shorter than 5 s landed in one bucket and a quantile said nothing.
func TestCallDurationBucketsTellSubSecondCallsApart(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a target that takes as long as its message says
		require.NoError(t, r.reg.Register(context.Background(), "slow", tripwire.Func(func(ctx context.Context, msg any) (any, error) {
			time.Sleep(msg.(time.Duration))
			return nil, nil
		}), tripwire.Settings{CallTimeout: 10 * time.Second}))

		// When one call takes 10 ms and another 2 s
		for _, d := range []time.Duration{10 * time.Millisecond, 2 * time.Second} {
			_, err := r.reg.Call(context.Background(), "slow", d)
			require.NoError(t, err)
		}

		// Then they land in different buckets of tripwire.call.duration
		h := r.collect(t)["tripwire.call.duration"].Data.(metricdata.Histogram[float64])
		for _, p := range h.DataPoints {
			if attr(p.Attributes, "tripwire.outcome") != "success" {
				continue
			}
			for i, n := range p.BucketCounts {
				require.LessOrEqualf(t, n, uint64(1),
					"a 10 ms and a 2 s call share bucket %d; bounds %v", i, p.Bounds)
			}
			return
		}
		t.Fatal("no duration recorded for a success")
	})
}
