package soak

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// watched is what a test's Config.Watch saw.
type watched struct {
	live         *Live
	keysAtStart  []string
	callsAtStart int64
	regKeys      []string
	// at stop: the load over, the registry still up
	crashAfter   error
	stateAfter   error
	answersAfter []Counts
	metrics      metricdata.ResourceMetrics
}

// answers is what the run's callers got from each key so far.
func answers(l *Live) []Counts {
	out := make([]Counts, len(l.h.keys))
	for i := range out {
		out[i] = l.h.live.perKey[i].load()
	}
	return out
}

// watchRun runs cfg with a Watch that records what it sees, and hands the
// Live to during while the load runs.
func watchRun(t *testing.T, cfg Config, reader sdkmetric.Reader, during func(*Live)) (Report, *watched) {
	t.Helper()
	w := &watched{}
	lives := make(chan *Live, 1)
	cfg.Watch = func(l *Live) func() {
		w.live, w.keysAtStart, w.regKeys = l, l.Keys(), l.Registry().Keys()
		for _, a := range answers(l) {
			w.callsAtStart += a.Sum()
		}
		lives <- l
		return func() {
			w.crashAfter = l.Crash(l.Keys()[0])
			_, w.stateAfter = l.Registry().State(l.Keys()[0])
			w.answersAfter = answers(l)
			if reader != nil {
				_ = reader.Collect(context.Background(), &w.metrics)
			}
		}
	}
	type result struct {
		rep Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := Run(context.Background(), cfg)
		done <- result{rep, err}
	}()
	select {
	case l := <-lives:
		during(l)
	case r := <-done:
		t.Fatalf("Run ended without calling Watch: %v", r.err)
	}
	r := <-done
	if r.err != nil {
		t.Fatalf("Run: %v", r.err)
	}
	return r.rep, w
}

func TestWatchSeesTheRunWhileItGoes(t *testing.T) {
	// Given a short run with no crashes of its own, whose first two targets
	// (a function and an actor) die for the middle third
	cfg := small()
	cfg.CrashEvery = 0
	cfg.Duration = 1500 * time.Millisecond
	var grew, sawDown, sawLatency bool
	var crashErr error
	// When a watcher reads it while the load runs, and crashes k0002 once
	rep, w := watchRun(t, cfg, nil, func(l *Live) {
		calls := func() (n int64) {
			for _, a := range answers(l) {
				n += a.Sum()
			}
			return n
		}
		first := int64(0)
		grew = testkit.Poll(5*time.Second, func() bool { first = calls(); return first > 0 }) &&
			testkit.Poll(5*time.Second, func() bool { return calls() > first })
		sawLatency = testkit.Poll(5*time.Second, func() bool { // the breaker's own statistics
			s, err := l.Registry().Snapshot(context.Background(), "k0002")
			lat := s.Stats.Latency
			return err == nil && lat.P50 > 0 && lat.P99 >= lat.P50 && l.h.scripts[2].Counts().Calls > 0
		})
		sawDown = testkit.Poll(5*time.Second, func() bool {
			down := l.h.live.down
			return down[0].Load() && down[1].Load() && !down[2].Load()
		})
		crashErr = l.Crash("k0002")
	})
	// Then it was called before the load, with the registry and every key
	if !slices.Equal(w.keysAtStart, []string{"k0000", "k0001", "k0002", "k0003"}) ||
		!slices.Equal(w.regKeys, w.keysAtStart) || w.callsAtStart != 0 {
		t.Fatalf("at start: keys %v, registry %v, %d answers", w.keysAtStart, w.regKeys, w.callsAtStart)
	}
	// and saw the counts grow, latencies, and the dead targets
	if !grew || !sawLatency || !sawDown || crashErr != nil {
		t.Fatalf("grew %v, latency %v, down %v, crash %v", grew, sawLatency, sawDown, crashErr)
	}
	// And its crash counts as one of the run's: restarted once, no violation
	if rep.Crash.Crashes != 1 || rep.Crash.ByKey["k0002"] != 1 || rep.Restarts != 1 {
		t.Fatalf("crashes %+v, restarts %d", rep.Crash, rep.Restarts)
	}
	if v := rep.Violations(cfg); len(v) != 0 {
		t.Fatalf("violations: %q", v)
	}
	// And once the load was over, before the shutdown, it could crash no
	// more, the registry still answered, and the figures were the report's
	if !errors.Is(w.crashAfter, ErrRunOver) || w.stateAfter != nil {
		t.Fatalf("after the load: crash %v, state %v", w.crashAfter, w.stateAfter)
	}
	for i, a := range w.answersAfter {
		if a != rep.PerKey[i] {
			t.Fatalf("key %d: watcher saw %v at the end, report %v", i, a, rep.PerKey[i])
		}
	}
	// And once Run returned, the registry is shut down
	if _, err := w.live.Registry().State("k0000"); !errors.Is(err, tripwire.ErrShutdown) {
		t.Fatalf("after Run: %v", err)
	}
}

func TestWatchCrashesOfUnknownKeysCountForNothing(t *testing.T) {
	// Given a short run without chaos
	cfg := small()
	cfg.FailRate, cfg.HangRate, cfg.CrashEvery, cfg.PanicEvery, cfg.BurstEvery = 0, 0, 0, 0, 0
	cfg.KillTargets = false
	cfg.Duration = 300 * time.Millisecond
	var unknown, invalid error
	// When a watcher crashes a key the run does not have, and one no key can be
	rep, _ := watchRun(t, cfg, nil, func(l *Live) {
		unknown, invalid = l.Crash("nope"), l.Crash("")
	})
	// Then both are refused as the registry refuses them, and the run counts
	// neither as a crash nor as a crash error
	if !errors.Is(unknown, tripwire.ErrUnknownKey) || !errors.Is(invalid, tripwire.ErrInvalidKey) {
		t.Fatalf("unknown %v, invalid %v", unknown, invalid)
	}
	if rep.Crash.Crashes != 0 || rep.Crash.Errors != 0 || rep.Restarts != 0 {
		t.Fatalf("crashes %+v, restarts %d", rep.Crash, rep.Restarts)
	}
}

func TestOptionsReachTheRunsRegistry(t *testing.T) {
	// Given a run whose registry records metrics to a reader of the test's
	reader := sdkmetric.NewManualReader()
	provider := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer func() { _ = provider.Shutdown(context.Background()) }()
	cfg := small()
	cfg.Duration = 300 * time.Millisecond
	cfg.Options = []tripwire.Option{tripwire.WithMeterProvider(provider)}
	// When it runs
	_, w := watchRun(t, cfg, reader, func(*Live) {})
	// Then the registry counted its calls there
	var names []string
	for _, sm := range w.metrics.ScopeMetrics {
		for _, m := range sm.Metrics {
			names = append(names, m.Name)
		}
	}
	if !slices.Contains(names, "tripwire.calls") || !slices.Contains(names, "tripwire.restarts") {
		t.Fatalf("metrics %v", names)
	}
}
