package bench

import (
	"context"
	"errors"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

// retryCallers is how many callers retry ErrOpen without pausing.
const retryCallers = 1000

// BenchmarkTightRetryLoops: 1,000 callers call one key in a loop and retry
// at once whatever the answer; the dependency hangs, the breaker opens, and
// each caller's first fast failure (ErrOpen) is timed from the trip. It
// reports the time until the last caller had one (max-ms) and the median
// (p50-ms): callers that never block on the open path must not keep the
// others from running. One scenario per iteration; run with -benchtime 1x.
func BenchmarkTightRetryLoops(b *testing.B) {
	var worst, median []float64
	for range b.N {
		w, m := tightRetryScenario(b)
		worst, median = append(worst, w), append(median, m)
	}
	b.ReportMetric(maxOf(worst), "max-ms")
	b.ReportMetric(maxOf(median), "p50-ms")
}

func maxOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// tightRetryScenario runs the scenario once and returns the last and the
// median caller's time from the trip to its first fast failure, in ms.
func tightRetryScenario(tb testing.TB) (last, median float64) {
	sys := testkit.NewSystem(tb)
	reg := testkit.Start(tb, sys)
	var hung atomic.Bool
	release := make(chan struct{})
	target := tripwire.Func(func(ctx context.Context, m any) (any, error) {
		if hung.Load() {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return nil, errors.New("hung")
		}
		return m, nil
	})
	testkit.Register(tb, reg, "dep", target, tripwire.Settings{Threshold: 5, CallTimeout: 50 * time.Millisecond, OpenTimeout: time.Hour})
	tripped := make(chan time.Time, 1)
	defer reg.Subscribe(func(t state.Transition) {
		if t.To == state.Open {
			select {
			case tripped <- t.At:
			default:
			}
		}
	})()

	firsts := make([]time.Time, retryCallers)
	var stop atomic.Bool
	var wg sync.WaitGroup
	var served sync.WaitGroup
	served.Add(retryCallers)
	ctx := context.Background()
	for i := range retryCallers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seen := false
			for !stop.Load() {
				_, err := reg.Call(ctx, "dep", msg)
				if !seen && errors.Is(err, tripwire.ErrOpen) {
					firsts[i], seen = time.Now(), true
					served.Done()
				}
			}
		}()
	}
	time.Sleep(100 * time.Millisecond) // the callers are looping on a healthy dependency
	hung.Store(true)
	done := make(chan struct{})
	go func() { served.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		tb.Error("some callers had no fast failure within 30 s")
	}
	stop.Store(true)
	close(release)
	wg.Wait()
	at := <-tripped
	waits := make([]float64, 0, retryCallers)
	for _, f := range firsts {
		if !f.IsZero() {
			waits = append(waits, float64(f.Sub(at))/float64(time.Millisecond))
		}
	}
	sort.Float64s(waits)
	if len(waits) == 0 {
		return 0, 0
	}
	return waits[len(waits)-1], waits[len(waits)/2]
}
