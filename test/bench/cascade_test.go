package bench

import (
	"context"
	"errors"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

// The cascade: 1,000 callers call one dependency in a tight loop, retrying
// at once whatever the answer, through a breaker with a 100 ms CallTimeout
// and a Threshold of 5. The dependency answers at once for a second (the
// healthy phase), then hangs; every caller's first fast failure is timed
// from the trip. On 2 cores the callers keep both busy: a breaker must not
// trip in the healthy phase because its own workers waited for a core past
// their deadline, and every caller must get its fast failure soon after the
// trip.
const (
	cascadeCallers  = 1000
	cascadeTimeout  = 100 * time.Millisecond
	cascadeHealthy  = time.Second
	cascadeGiveUpIn = 30 * time.Second
)

// breakerUnderTest is one breaker in front of the cascade's dependency.
type breakerUnderTest struct {
	call   func(ctx context.Context) error // one call of the dependency through the breaker
	isOpen func(err error) bool
	trips  func() []time.Time // when it opened, in order
	close  func()
}

// cascadeOutcome is what one run of the cascade measured.
type cascadeOutcome struct {
	healthyTrips int // trips in the healthy phase
	// ms from the trip to the last (median) caller's first fast failure;
	// not measured (0) after a trip in the healthy phase
	last, median float64
}

// BenchmarkTightRetryCascade runs the cascade through Tripwire and through
// the fair peer (gobreaker around running the function on a goroutine of its
// own with the same timeout), alternately, once each per iteration; run with
// -benchtime 3x. It reports the worst of the iterations: the trips in the
// healthy phase and the last and median callers' first fast failure.
func BenchmarkTightRetryCascade(b *testing.B) {
	var tw, peer []cascadeOutcome
	for range b.N {
		tw = append(tw, runCascade(b, tripwireUnderTest(b)))
		peer = append(peer, runCascade(b, peerUnderTest()))
	}
	report := func(prefix string, outs []cascadeOutcome) {
		var trips int
		var last, median float64
		for _, o := range outs {
			trips, last, median = max(trips, o.healthyTrips), max(last, o.last), max(median, o.median)
		}
		b.ReportMetric(float64(trips), prefix+"healthy-trips")
		b.ReportMetric(last, prefix+"max-ms")
		b.ReportMetric(median, prefix+"p50-ms")
	}
	report("", tw)
	report("peer-", peer)
}

// dependency is the cascade's target: at once while healthy, then hung
// until released or its context ends.
type dependency struct {
	hung    atomic.Bool
	release chan struct{}
}

func (d *dependency) serve(ctx context.Context, m any) (any, error) {
	if d.hung.Load() {
		select {
		case <-d.release:
		case <-ctx.Done():
		}
		return nil, errors.New("hung")
	}
	return m, nil
}

var cascadeDep *dependency // the dependency of the run under way

func tripwireUnderTest(tb testing.TB) *breakerUnderTest {
	sys := testkit.NewSystem(tb)
	reg := testkit.Start(tb, sys)
	d := &dependency{release: make(chan struct{})}
	cascadeDep = d
	testkit.Register(tb, reg, "dep", tripwire.Func(d.serve),
		tripwire.Settings{Threshold: 5, CallTimeout: cascadeTimeout, OpenTimeout: time.Hour})
	var mu sync.Mutex
	var trips []time.Time
	unsubscribe := reg.Subscribe(func(t state.Transition) {
		if t.To == state.Open {
			mu.Lock()
			trips = append(trips, t.At)
			mu.Unlock()
		}
	})
	return &breakerUnderTest{
		call: func(ctx context.Context) error {
			_, err := reg.Call(ctx, "dep", msg)
			return err
		},
		isOpen: func(err error) bool { return errors.Is(err, tripwire.ErrOpen) },
		trips: func() []time.Time {
			mu.Lock()
			defer mu.Unlock()
			return append([]time.Time(nil), trips...)
		},
		close: unsubscribe,
	}
}

func peerUnderTest() *breakerUnderTest {
	d := &dependency{release: make(chan struct{})}
	cascadeDep = d
	var mu sync.Mutex
	var trips []time.Time
	cb := gobreaker.NewCircuitBreaker[any](gobreaker.Settings{
		Name:    "dep",
		Timeout: time.Hour,
		ReadyToTrip: func(c gobreaker.Counts) bool {
			return c.ConsecutiveFailures >= 5
		},
		OnStateChange: func(_ string, _, to gobreaker.State) {
			if to == gobreaker.StateOpen {
				mu.Lock()
				trips = append(trips, time.Now())
				mu.Unlock()
			}
		},
	})
	return &breakerUnderTest{
		call: func(ctx context.Context) error {
			_, err := cb.Execute(func() (any, error) {
				ctx, cancel := context.WithTimeout(ctx, cascadeTimeout)
				defer cancel()
				done := make(chan result, 1)
				go func() {
					v, err := d.serve(ctx, msg)
					done <- result{v, err}
				}()
				select {
				case r := <-done:
					return r.v, r.err
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			})
			return err
		},
		isOpen: func(err error) bool { return errors.Is(err, gobreaker.ErrOpenState) },
		trips: func() []time.Time {
			mu.Lock()
			defer mu.Unlock()
			return append([]time.Time(nil), trips...)
		},
		close: func() {},
	}
}

// runCascade runs the cascade once through but.
func runCascade(tb testing.TB, but *breakerUnderTest) cascadeOutcome {
	defer but.close()
	d := cascadeDep
	firsts := make([]time.Time, cascadeCallers)
	var stop atomic.Bool
	var wg, served sync.WaitGroup
	served.Add(cascadeCallers)
	ctx := context.Background()
	for i := range cascadeCallers {
		wg.Go(func() {
			seen := false
			for !stop.Load() {
				if err := but.call(ctx); !seen && but.isOpen(err) {
					firsts[i], seen = time.Now(), true
					served.Done()
				}
			}
		})
	}
	time.Sleep(cascadeHealthy)
	var out cascadeOutcome
	out.healthyTrips = len(but.trips())
	if out.healthyTrips > 0 {
		// Open since the healthy phase (OpenTimeout is an hour): there
		// is no trip to time the callers from.
		stop.Store(true)
		close(d.release)
		wg.Wait()
		return out
	}
	d.hung.Store(true)
	done := make(chan struct{})
	go func() { served.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(cascadeGiveUpIn):
		tb.Errorf("some callers had no fast failure within %v", cascadeGiveUpIn)
	}
	stop.Store(true)
	close(d.release)
	wg.Wait()
	trips := but.trips()
	if len(trips) == 0 {
		tb.Fatal("the breaker never opened once the dependency hung")
	}
	at := trips[0]
	waits := make([]float64, 0, cascadeCallers)
	for _, f := range firsts {
		if !f.IsZero() && f.After(at) {
			waits = append(waits, float64(f.Sub(at))/float64(time.Millisecond))
		}
	}
	if len(waits) == 0 {
		return out
	}
	sort.Float64s(waits)
	out.last, out.median = waits[len(waits)-1], waits[len(waits)/2]
	return out
}
