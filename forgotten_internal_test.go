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

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/internal/system"
)

// forgetRig is a registry bounded at two keys, whose factory makes keys
// that passivate after a second and take calls of a second; key "a", made
// again, hangs until its call is given up. The supervisor hears of a wake
// only while hold is false.
type forgetRig struct {
	reg    *Registry
	hold   atomic.Bool
	madeA  atomic.Int64
	reader *sdkmetric.ManualReader
	spans  *tracetest.SpanRecorder
}

func inForgetBubble(t *testing.T, body func(t *testing.T, r *forgetRig)) {
	synctest.Test(t, func(t *testing.T) {
		r := &forgetRig{reader: sdkmetric.NewManualReader(), spans: tracetest.NewSpanRecorder()}
		factory := func(_ context.Context, key string) (Target, Settings, error) {
			answer := Func(func(context.Context, any) (any, error) { return "ok", nil })
			if key == "a" && r.madeA.Add(1) > 1 {
				answer = Func(func(ctx context.Context, _ any) (any, error) {
					<-ctx.Done()
					return nil, ctx.Err()
				})
			}
			return answer, Settings{IdleTimeout: time.Second, CallTimeout: time.Second}, nil
		}
		sys := system.New(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
		reg, err := Start(WithActorSystem(sys), WithFactory(factory), WithMaxKeys(2),
			WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.reader))),
			WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(r.spans))))
		require.NoError(t, err)
		r.reg = reg
		defer func() {
			require.NoError(t, reg.Shutdown(context.Background()))
			sys.Shutdown()
			time.Sleep(time.Minute)
			synctest.Wait()
		}()
		wake := reg.shared.Wake
		reg.shared.Wake = func(c *tactor.Config) {
			if !r.hold.Load() {
				wake(c)
			}
		}
		body(t, r)
	})
}

// callForgotten makes keys a and b, lets them passivate (a first), then
// calls a and, after wait with a's wake held, calls a new key c, for which
// a is forgotten. It returns how long a's call took, and its answer.
func (r *forgetRig) callForgotten(t *testing.T, wait time.Duration) (time.Duration, error) {
	ctx := context.Background()
	_, err := r.reg.Call(ctx, "a", "x")
	require.NoError(t, err)
	time.Sleep(100 * time.Millisecond)
	_, err = r.reg.Call(ctx, "b", "x")
	require.NoError(t, err)
	time.Sleep(2 * time.Second)
	synctest.Wait()
	r.spans.Reset()

	r.hold.Store(true)
	began := time.Now()
	answered := make(chan error, 1)
	go func() {
		_, err := r.reg.Call(ctx, "a", "x")
		answered <- err
	}()
	time.Sleep(wait)
	synctest.Wait()
	r.hold.Store(false)
	_, err = r.reg.Call(ctx, "c", "x")
	require.NoError(t, err)
	err = <-answered
	return time.Since(began), err
}

// TestACallWhoseKeyIsForgottenKeepsItsDeadlineAndOneOutcome: a call posted
// to a passivated key that WithMaxKeys forgets before it wakes is sent to
// the key made again, by the deadline it began with, and its span and
// metrics record only the answer its caller gets.
func TestACallWhoseKeyIsForgottenKeepsItsDeadlineAndOneOutcome(t *testing.T) {
	inForgetBubble(t, func(t *testing.T, r *forgetRig) {
		// Given a call to a that waits 900 ms for a to wake, when a is
		// forgotten for another key
		took, err := r.callForgotten(t, 900*time.Millisecond)

		// Then the call goes to a made again, and times out by the deadline
		// it began with
		require.ErrorIs(t, err, ErrTimeout)
		require.LessOrEqual(t, took, time.Second+ReplyGrace)
		require.Equal(t, int64(2), r.madeA.Load())

		// and is one span and one timeout, no failure, in the metrics
		var calls []string
		for _, s := range r.spans.Ended() {
			if s.Name() == "tripwire.call" {
				for _, kv := range s.Attributes() {
					if kv.Key == "tripwire.outcome" {
						calls = append(calls, kv.Value.AsString())
					}
				}
			}
		}
		require.ElementsMatch(t, []string{"timeout", "success"}, calls) // a's and c's
		require.Equal(t, map[string]uint64{"success": 3, "timeout": 1}, durationCounts(t, r.reader))
	})
}

// TestACallForgottenPastItsDeadlineMakesNoKey: a call whose key is
// forgotten after its deadline (within ReplyGrace) times out without
// running the factory for nobody.
func TestACallForgottenPastItsDeadlineMakesNoKey(t *testing.T) {
	inForgetBubble(t, func(t *testing.T, r *forgetRig) {
		took, err := r.callForgotten(t, time.Second+ReplyGrace/2)
		require.ErrorIs(t, err, ErrTimeout)
		require.LessOrEqual(t, took, time.Second+ReplyGrace)
		require.Equal(t, int64(1), r.madeA.Load())
		// and it is a timeout in the metrics, as its caller saw
		require.Equal(t, map[string]uint64{"success": 3, "timeout": 1}, durationCounts(t, r.reader))
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
