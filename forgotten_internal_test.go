package tripwire

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	tactor "github.com/tripwire-go/tripwire/actor"
)

// TestACallWhoseKeyIsForgottenKeepsItsDeadlineAndOneOutcome: a call posted
// to a passivated key that WithMaxKeys forgets before it wakes is sent to
// the key made again, by the deadline it began with, and its span and
// metrics record only the answer its caller gets.
func TestACallWhoseKeyIsForgottenKeepsItsDeadlineAndOneOutcome(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		reader := sdkmetric.NewManualReader()
		spans := tracetest.NewSpanRecorder()
		var madeA atomic.Int64
		factory := func(_ context.Context, key string) (Target, Settings, error) {
			answer := FuncTarget(func(context.Context, any) (any, error) { return "ok", nil })
			if key == "a" && madeA.Add(1) > 1 { // made again: hangs until given up
				answer = FuncTarget(func(ctx context.Context, _ any) (any, error) {
					<-ctx.Done()
					return nil, ctx.Err()
				})
			}
			return answer, Settings{IdleTimeout: time.Second, CallTimeout: time.Second}, nil
		}
		sys := NewActorSystem(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
		reg, err := Start(sys, WithFactory(factory), WithMaxKeys(2),
			WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))),
			WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))))
		require.NoError(t, err)
		defer func() {
			require.NoError(t, reg.Shutdown(context.Background()))
			sys.Shutdown()
			time.Sleep(time.Minute)
			synctest.Wait()
		}()
		// The supervisor hears of a wake only when the test lets it.
		var hold atomic.Bool
		wake := reg.shared.Wake
		reg.shared.Wake = func(c *tactor.Config) {
			if !hold.Load() {
				wake(c)
			}
		}

		// Given keys a and b made, called and passivated since, a first
		ctx := context.Background()
		_, err = reg.Call(ctx, "a", "x")
		require.NoError(t, err)
		time.Sleep(100 * time.Millisecond)
		_, err = reg.Call(ctx, "b", "x")
		require.NoError(t, err)
		time.Sleep(2 * time.Second)
		synctest.Wait()
		spans.Reset()

		// When a call to a waits for a to wake, 900 ms long
		hold.Store(true)
		began := time.Now()
		answered := make(chan error, 1)
		go func() {
			_, err := reg.Call(ctx, "a", "x")
			answered <- err
		}()
		time.Sleep(900 * time.Millisecond)
		synctest.Wait()
		hold.Store(false)
		// and a key c comes, for which a is forgotten
		_, err = reg.Call(ctx, "c", "x")
		require.NoError(t, err)

		// Then the call goes to a made again, and times out by the deadline
		// it began with
		err = <-answered
		require.ErrorIs(t, err, ErrTimeout)
		require.LessOrEqual(t, time.Since(began), time.Second+ReplyGrace)
		require.Equal(t, int64(2), madeA.Load())

		// and is one span and one timeout, no failure, in the metrics
		var calls []string
		for _, s := range spans.Ended() {
			if s.Name() == "tripwire.call" {
				for _, kv := range s.Attributes() {
					if kv.Key == "tripwire.outcome" {
						calls = append(calls, kv.Value.AsString())
					}
				}
			}
		}
		require.ElementsMatch(t, []string{"timeout", "success"}, calls) // a's and c's
		require.Equal(t, map[string]uint64{"success": 3, "timeout": 1}, durationCounts(t, reader))
	})
}

// durationCounts is the count of tripwire.call.duration per outcome.
func durationCounts(t *testing.T, reader *sdkmetric.ManualReader) map[string]uint64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(context.Background(), &rm))
	counts := map[string]uint64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "tripwire.call.duration" {
				continue
			}
			for _, dp := range m.Data.(metricdata.Histogram[float64]).DataPoints {
				outcome, _ := dp.Attributes.Value("tripwire.outcome")
				counts[outcome.AsString()] += dp.Count
			}
		}
	}
	return counts
}
