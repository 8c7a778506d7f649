//go:build !race

package scale

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/sony/gobreaker/v2"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

// million is the key count of the benchmarks.
const million = 1_000_000

// tail is how many of the million keys registerTail registers.
const tail = 10 * batch

// registerTail registers the last tail keys of the million in big, a
// thousand at a time, alternating each thousand with a thousand registered
// in small (and unregistered, untimed, so that small holds a thousand keys
// at most). It returns the median time per key of big's thousands and of
// small's: Register at a million keys and at a thousand, at the same
// moments of one run — on a shared machine two runs minutes apart differ
// by more than the growth to measure.
func registerTail(b *testing.B, big, small *tripwire.Registry) (atMillion, atThousand time.Duration) {
	var bigs, smalls []time.Duration
	for start := million - tail; start < million; start += batch {
		t0 := time.Now()
		for i := start; i < start+batch; i++ {
			if err := big.Register(context.Background(), key(i), ok, tripwire.Settings{}); err != nil {
				b.Fatal(err)
			}
		}
		bigs = append(bigs, time.Since(t0)/batch)
		t0 = time.Now()
		for i := range batch {
			if err := small.Register(context.Background(), key(i), ok, tripwire.Settings{}); err != nil {
				b.Fatal(err)
			}
		}
		smalls = append(smalls, time.Since(t0)/batch)
		for i := range batch {
			if err := small.Unregister(context.Background(), key(i)); err != nil {
				b.Fatal(err)
			}
		}
	}
	slices.Sort(bigs)
	slices.Sort(smalls)
	return bigs[len(bigs)/2], smalls[len(smalls)/2]
}

// BenchmarkMillionKeys registers a million keys in one registry and reports
// what that costs (Register time per key at the first thousand and at a
// million against a thousand (registerTail), heap per key registered and
// called once and then quiet, Keys, one Snapshot, Shutdown), next to its peers in the
// same run: a million gobreakers in a map, and a million plain protoactor
// actors (the floor of any actor per key). Run once: make scale.
func BenchmarkMillionKeys(b *testing.B) {
	b.Run("tripwire", func(b *testing.B) {
		for b.Loop() {
			sys := testkit.NewSystem(b)
			reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
			if err != nil {
				b.Fatal(err)
			}
			small, err := tripwire.Start(tripwire.WithActorSystem(sys))
			if err != nil {
				b.Fatal(err)
			}
			base := heap()
			t0 := time.Now()
			first, _ := registerAll(b, reg, 0, million-tail, tripwire.Settings{})
			atMillion, atThousand := registerTail(b, reg, small)
			total := time.Since(t0)
			if err := small.Shutdown(context.Background()); err != nil {
				b.Fatal(err)
			}
			perKey := float64(heap()-base) / million
			t0 = time.Now()
			keys := reg.Keys()
			listed := time.Since(t0)
			if len(keys) != million {
				b.Fatalf("%d keys", len(keys))
			}
			keys = nil
			t0 = time.Now()
			const snaps = 10000
			for i := range snaps {
				if _, err := reg.Snapshot(context.Background(), key(i*97)); err != nil {
					b.Fatal(err)
				}
			}
			snap := time.Since(t0) / snaps
			// Every key called once and then quiet: its statistics' window
			// given back a window later (its drain check), its totals kept
			callAll(b, reg, 0, million, 8)
			time.Sleep(state.StatsWindow + 5*time.Second)
			calledPerKey := float64(heap()-base) / million
			t0 = time.Now()
			if err := reg.Shutdown(context.Background()); err != nil {
				b.Fatal(err)
			}
			down := time.Since(t0)
			b.ReportMetric(total.Seconds(), "s-register")
			b.ReportMetric(float64(first.Nanoseconds()), "ns/key-first1k")
			b.ReportMetric(float64(atMillion.Nanoseconds()), "ns/key-at1M")
			b.ReportMetric(float64(atThousand.Nanoseconds()), "ns/key-at1k-meanwhile")
			b.ReportMetric(float64(atMillion)/float64(atThousand), "x-growth")
			b.ReportMetric(perKey, "B/key")
			b.ReportMetric(calledPerKey, "B/key-called-quiet")
			b.ReportMetric(listed.Seconds(), "s-Keys")
			b.ReportMetric(float64(snap.Nanoseconds()), "ns-Snapshot")
			b.ReportMetric(down.Seconds(), "s-Shutdown")
		}
	})
	b.Run("gobreaker-map", func(b *testing.B) {
		for b.Loop() {
			base := heap()
			t0 := time.Now()
			m := make(map[string]*gobreaker.CircuitBreaker[any])
			for i := range million {
				k := key(i)
				m[k] = gobreaker.NewCircuitBreaker[any](gobreaker.Settings{Name: k})
			}
			total := time.Since(t0)
			b.ReportMetric(total.Seconds(), "s-register")
			b.ReportMetric(float64(heap()-base)/million, "B/key")
			if len(m) != million {
				b.Fatal(len(m))
			}
		}
	})
	b.Run("protoactor-actors", func(b *testing.B) {
		for b.Loop() {
			sys := testkit.NewSystem(b)
			base := heap()
			props := actor.PropsFromFunc(func(actor.Context) {})
			t0 := time.Now()
			pids := make([]*actor.PID, million)
			for i := range pids {
				pids[i], _ = sys.Root.SpawnNamed(props, key(i))
			}
			total := time.Since(t0)
			b.ReportMetric(total.Seconds(), "s-register")
			b.ReportMetric(float64(heap()-base-int64(len(pids))*8)/million, "B/key")
			for _, pid := range pids {
				sys.Root.Stop(pid)
			}
			waitForProcesses(b, sys, 2)
		}
	})
}

// BenchmarkFactoryHundredThousand makes 100,000 keys through the factory
// by concurrent first calls (64 callers) and reports the seconds it took.
func BenchmarkFactoryHundredThousand(b *testing.B) {
	for b.Loop() {
		sys := testkit.NewSystem(b)
		reg, err := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithFactory(func(context.Context, string) (tripwire.Target, tripwire.Settings, error) {
			return ok, tripwire.Settings{IdleTimeout: time.Minute}, nil
		}))
		if err != nil {
			b.Fatal(err)
		}
		const keys = 100_000
		t0 := time.Now()
		var wg sync.WaitGroup
		for w := range 64 {
			wg.Go(func() {
				for i := w; i < keys; i += 64 {
					if _, err := reg.Call(context.Background(), key(i), nil); err != nil {
						b.Errorf("first call %d: %v", i, err)
						return
					}
				}
			})
		}
		wg.Wait()
		b.ReportMetric(time.Since(t0).Seconds(), "s-100k")
		if err := reg.Shutdown(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWake is the call of a passivated key, which wakes it (a new
// breaker actor), next to the call of a live key in the same run; one
// caller, 20,000 keys each.
func BenchmarkWake(b *testing.B) {
	const keys = 20_000
	sys := testkit.NewSystem(b)
	reg, err := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithFactory(func(context.Context, string) (tripwire.Target, tripwire.Settings, error) {
		return ok, tripwire.Settings{IdleTimeout: 500 * time.Millisecond, CallTimeout: 200 * time.Millisecond}, nil
	}))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = reg.Shutdown(context.Background()) }()
	idle := processes(sys)
	callAll(b, reg, 0, keys, 8)
	for b.Loop() {
		waitForProcesses(b, sys, idle+1) // all asleep
		t0 := time.Now()
		callAll(b, reg, 0, keys, 1)
		wake := time.Since(t0) / keys
		t0 = time.Now()
		callAll(b, reg, 0, keys, 1)
		live := time.Since(t0) / keys
		b.ReportMetric(float64(wake.Nanoseconds()), "ns/wake+call")
		b.ReportMetric(float64(live.Nanoseconds()), "ns/call-live")
		b.ReportMetric(float64((wake - live).Nanoseconds()), "ns/wake")
	}
}

// lookups is how many calls one run of BenchmarkOpenPathMillion times.
const lookups = 2_000_000

// BenchmarkOpenPathMillion fails fast on random keys of a million open
// ones, next to gobreaker in a map of a million open breakers: the key
// lookup with cold caches.
func BenchmarkOpenPathMillion(b *testing.B) {
	keys := make([]string, million)
	for i := range keys {
		keys[i] = key(i)
	}
	b.Run("tripwire", func(b *testing.B) {
		sys := testkit.NewSystem(b)
		reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
		if err != nil {
			b.Fatal(err)
		}
		defer func() { _ = reg.Shutdown(context.Background()) }()
		registerAll(b, reg, 0, million, tripwire.Settings{IdleTimeout: time.Hour})
		for _, k := range keys {
			if err := reg.ForceOpen(context.Background(), k); err != nil {
				b.Fatal(err)
			}
		}
		ctx := context.Background()
		r := rand.New(rand.NewPCG(1, 2))
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			t0 := time.Now()
			for range lookups {
				if _, err := reg.Call(ctx, keys[r.IntN(million)], nil); !errors.Is(err, tripwire.ErrOpen) {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(time.Since(t0).Nanoseconds())/lookups, "ns/call")
		}
	})
	b.Run("gobreaker-map", func(b *testing.B) {
		m := make(map[string]*gobreaker.CircuitBreaker[any], million)
		fail := errors.New("down")
		for _, k := range keys {
			cb := gobreaker.NewCircuitBreaker[any](gobreaker.Settings{Name: k, Timeout: time.Hour})
			for range 6 {
				_, _ = cb.Execute(func() (any, error) { return nil, fail })
			}
			m[k] = cb
		}
		r := rand.New(rand.NewPCG(1, 2))
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			t0 := time.Now()
			for range lookups {
				if _, err := m[keys[r.IntN(million)]].Execute(nil); !errors.Is(err, gobreaker.ErrOpenState) {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(time.Since(t0).Nanoseconds())/lookups, "ns/call")
		}
	})
}

// BenchmarkStateGaugeMillion collects the metrics of a registry of a
// million keys, all called once: the state gauge reports one point per key.
func BenchmarkStateGaugeMillion(b *testing.B) {
	reader := sdkmetric.NewManualReader()
	sys := testkit.NewSystem(b)
	reg, err := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = reg.Shutdown(context.Background()) }()
	registerAll(b, reg, 0, million, tripwire.Settings{})
	callAll(b, reg, 0, million, 8)
	for b.Loop() {
		base := heap()
		t0 := time.Now()
		var rm metricdata.ResourceMetrics
		if err := reader.Collect(context.Background(), &rm); err != nil {
			b.Fatal(err)
		}
		took := time.Since(t0)
		points := 0
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				switch d := m.Data.(type) {
				case metricdata.Gauge[int64]:
					points += len(d.DataPoints)
				case metricdata.Sum[int64]:
					points += len(d.DataPoints)
				case metricdata.Histogram[float64]:
					points += len(d.DataPoints)
				}
			}
		}
		b.ReportMetric(took.Seconds(), "s-collect")
		b.ReportMetric(float64(points), "points")
		b.ReportMetric(float64(heap()-base)/million, "B/key-metrics")
	}
}

// BenchmarkSnapshotsMillion lists keys of a registry of a million: the
// dozen open ones by a state filter (asking only their breakers), and all
// of them.
func BenchmarkSnapshotsMillion(b *testing.B) {
	sys := testkit.NewSystem(b)
	reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = reg.Shutdown(context.Background()) }()
	registerAll(b, reg, 0, million, tripwire.Settings{})
	for i := range 12 {
		if err := reg.ForceOpen(context.Background(), key(i*80_000)); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	count := func(f tripwire.Filter) int {
		n := 0
		if err := reg.Snapshots(ctx, f, func(tripwire.Snapshot) bool { n++; return true }); err != nil {
			b.Fatal(err)
		}
		return n
	}
	for b.Loop() {
		t0 := time.Now()
		if n := count(tripwire.Filter{States: []state.State{state.Open}}); n != 12 {
			b.Fatalf("%d open keys listed, want 12", n)
		}
		b.ReportMetric(time.Since(t0).Seconds()*1000, "ms-open-of-1M")
		t0 = time.Now()
		if n := count(tripwire.Filter{}); n != million {
			b.Fatalf("%d keys listed, want %d", n, million)
		}
		b.ReportMetric(time.Since(t0).Seconds(), "s-all-1M")
	}
}
