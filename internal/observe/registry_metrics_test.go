package observe_test

import (
	"context"
	"maps"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// collect reads every Tripwire instrument once, by name.
func (r *rig) collect(t *testing.T) map[string]metricdata.Metrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, r.reader.Collect(context.Background(), &rm))
	out := map[string]metricdata.Metrics{}
	for _, sm := range rm.ScopeMetrics {
		require.Equal(t, "github.com/tripwire-go/tripwire", sm.Scope.Name)
		for _, m := range sm.Metrics {
			out[m.Name] = m
		}
	}
	return out
}

// attr returns the value of attribute k in set, or "" if it has none.
func attr(set attribute.Set, k string) string {
	v, _ := set.Value(attribute.Key(k))
	return v.Emit()
}

// counts sums a monotonic int64 counter by the given attributes of its
// points, after checking it is a cumulative monotonic sum.
func counts(t *testing.T, m metricdata.Metrics, keys ...string) map[[2]string]int64 {
	t.Helper()
	out := map[[2]string]int64{}
	if m.Data == nil {
		return out
	}
	sum, ok := m.Data.(metricdata.Sum[int64])
	require.True(t, ok, "%s is a %T, want a Sum[int64]", m.Name, m.Data)
	require.True(t, sum.IsMonotonic, m.Name)
	for _, p := range sum.DataPoints {
		var k [2]string
		for i, name := range keys {
			k[i] = attr(p.Attributes, name)
		}
		out[k] += p.Value
	}
	return out
}

// outcomes returns tripwire.calls and tripwire.call.time of key by outcome,
// and the count of tripwire.call.duration by outcome (of every key).
func (r *rig) outcomes(t *testing.T, key string) (calls, durations map[string]int64, seconds map[string]float64) {
	t.Helper()
	ms := r.collect(t)
	calls, durations, seconds = map[string]int64{}, map[string]int64{}, map[string]float64{}
	for k, n := range counts(t, ms["tripwire.calls"], "tripwire.key", "tripwire.outcome") {
		if k[0] == key {
			calls[k[1]] += n
		}
	}
	if d := ms["tripwire.call.time"].Data; d != nil {
		sum, ok := d.(metricdata.Sum[float64])
		require.True(t, ok, "tripwire.call.time is a %T", d)
		for _, p := range sum.DataPoints {
			if attr(p.Attributes, "tripwire.key") == key {
				seconds[attr(p.Attributes, "tripwire.outcome")] += p.Value
			}
		}
	}
	if d := ms["tripwire.call.duration"].Data; d != nil {
		h, ok := d.(metricdata.Histogram[float64])
		require.True(t, ok, "tripwire.call.duration is a %T", d)
		for _, p := range h.DataPoints {
			require.Empty(t, attr(p.Attributes, "tripwire.key"), "the histogram has no key by default")
			durations[attr(p.Attributes, "tripwire.outcome")] += int64(p.Count)
		}
	}
	return calls, durations, seconds
}

func TestCallsCountEachOutcomeAndItsDuration(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// every outcome is reported from when the key is made, at 0
		want := map[string]int64{"success": 0, "failure": 0, "timeout": 0, "rejected": 0, "canceled": 0}
		check := func(step string) {
			t.Helper()
			calls, durations, _ := r.outcomes(t, "k")
			require.Equal(t, want, calls, "tripwire.calls after %s", step)
			reached := counted(want) // a rejection never reached the breaker: no duration
			delete(reached, "rejected")
			require.Equal(t, reached, durations, "tripwire.call.duration count after %s", step)
		}
		// Given a registry with a meter provider, nothing is counted yet
		check("start")

		// When a call succeeds, fails, times out, is cancelled, fails again
		// (tripping the circuit) and is rejected, each adds 1 to its outcome
		require.NoError(t, r.call("k", msgOK))
		want["success"]++
		check("a success")

		require.ErrorIs(t, r.call("k", msgFail), errBoom)
		want["failure"]++
		check("a failure")

		start := time.Now()
		require.ErrorIs(t, r.call("k", msgWait), tripwire.ErrTimeout)
		require.Equal(t, callTimeout, time.Since(start))
		want["timeout"]++
		check("a timeout")

		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			_, err := r.reg.Call(ctx, "k", msgWait)
			errc <- err
		}()
		time.Sleep(100 * time.Millisecond)
		cancel()
		require.ErrorIs(t, <-errc, context.Canceled)
		want["canceled"]++
		check("a cancellation")

		require.ErrorIs(t, r.call("k", msgFail), errBoom)
		want["failure"]++
		synctest.Wait()
		r.requireState(t, "k", state.Open)
		check("the tripping failure")

		require.ErrorIs(t, r.call("k", msgOK), tripwire.ErrOpen)
		want["rejected"]++
		check("a rejection")

		// Then the key's time is the fake time its calls took, in seconds
		_, _, seconds := r.outcomes(t, "k")
		require.Equal(t, map[string]float64{
			"success": 0, "failure": 0, "timeout": callTimeout.Seconds(), "canceled": 0.1,
		}, seconds)
	})
}

// states returns tripwire.state's points as key -> state -> value.
func (r *rig) states(t *testing.T) map[string]map[string]int64 {
	t.Helper()
	m, ok := r.collect(t)["tripwire.state"]
	require.True(t, ok, "no tripwire.state")
	g, ok := m.Data.(metricdata.Gauge[int64])
	require.True(t, ok, "tripwire.state is a %T, want a Gauge[int64]", m.Data)
	out := map[string]map[string]int64{}
	for _, p := range g.DataPoints {
		key := attr(p.Attributes, "tripwire.key")
		if out[key] == nil {
			out[key] = map[string]int64{}
		}
		_, dup := out[key][attr(p.Attributes, "tripwire.state")]
		require.False(t, dup, "two points for %v", p.Attributes)
		out[key][attr(p.Attributes, "tripwire.state")] = p.Value
	}
	return out
}

func TestStateGaugeIsOneForTheCurrentStatePerKey(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given two closed keys
		r.register(t, "other")
		closed := map[string]int64{"closed": 1, "open": 0, "half_open": 0}
		open := map[string]int64{"closed": 0, "open": 1, "half_open": 0}
		half := map[string]int64{"closed": 0, "open": 0, "half_open": 1}
		require.Equal(t, map[string]map[string]int64{"k": closed, "other": closed}, r.states(t))

		// When "k" trips
		opened := r.trip(t, "k")

		// Then only "k" reports open
		require.Equal(t, map[string]map[string]int64{"k": open, "other": closed}, r.states(t))

		// When "k" half-opens
		r.halfOpen(t, "k", opened)

		// Then "k" reports half_open
		require.Equal(t, map[string]map[string]int64{"k": half, "other": closed}, r.states(t))

		// When "other" is unregistered, it is no longer reported
		require.NoError(t, r.reg.Unregister(context.Background(), "other"))
		require.Equal(t, map[string]map[string]int64{"k": half}, r.states(t))
	})
}

func TestTransitionsAreCountedByFromAndTo(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a registry with a meter provider
		r.register(t, "other")

		// When "k" goes through a whole cycle and "other" trips
		cycle(t, r, "k")
		r.trip(t, "other")

		// Then each change is counted once under its key, from and to
		m := r.collect(t)["tripwire.transitions"]
		require.Equal(t, map[[2]string]int64{
			{"closed", "open"}:      1,
			{"open", "half_open"}:   2,
			{"half_open", "open"}:   1,
			{"half_open", "closed"}: 1,
		}, counted(keyCounts(t, m, "k")))
		require.Equal(t, map[[2]string]int64{{"closed", "open"}: 1}, counted(keyCounts(t, m, "other")))
	})
}

// counted drops the points at 0 of a counter: the series a key reports
// from when it is made, before it counts.
func counted[K comparable](points map[K]int64) map[K]int64 {
	out := map[K]int64{}
	for k, v := range points {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

// keyCounts returns a from/to counter's points of one key.
func keyCounts(t *testing.T, m metricdata.Metrics, key string) map[[2]string]int64 {
	t.Helper()
	out := map[[2]string]int64{}
	sum, ok := m.Data.(metricdata.Sum[int64])
	require.True(t, ok, "%s is a %T", m.Name, m.Data)
	for _, p := range sum.DataPoints {
		if attr(p.Attributes, "tripwire.key") == key {
			out[[2]string{attr(p.Attributes, "tripwire.from"), attr(p.Attributes, "tripwire.to")}] += p.Value
		}
	}
	return out
}

func TestRestartsAreCountedPerKey(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given two keys, neither restarted: both at 0
		r.register(t, "other")
		require.Equal(t, map[[2]string]int64{{"k"}: 0, {"other"}: 0},
			counts(t, r.collect(t)["tripwire.restarts"], "tripwire.key"))

		// When "k" crashes twice and "other" once
		require.NoError(t, tripwiretest.Crash(context.Background(), r.reg, "k"))
		require.NoError(t, tripwiretest.Crash(context.Background(), r.reg, "k"))
		require.NoError(t, tripwiretest.Crash(context.Background(), r.reg, "other"))
		synctest.Wait()

		// Then tripwire.restarts counts them per key
		require.Equal(t, map[[2]string]int64{{"k"}: 2, {"other"}: 1},
			counts(t, r.collect(t)["tripwire.restarts"], "tripwire.key"))
	})
}

func TestInstrumentsHaveTheDocumentedUnitsAndKinds(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a registry whose every instrument has recorded something
		require.NoError(t, r.call("k", msgOK))
		r.trip(t, "k")
		require.NoError(t, tripwiretest.Crash(context.Background(), r.reg, "k"))
		synctest.Wait()

		// When the reader collects
		ms := r.collect(t)

		// Then each instrument has the unit and kind
		units := map[string]string{}
		for name, m := range ms {
			units[name] = m.Unit
		}
		require.Equal(t, map[string]string{
			"tripwire.calls":         "{call}",
			"tripwire.call.time":     "s",
			"tripwire.call.duration": "s",
			"tripwire.state":         "{state}",
			"tripwire.transitions":   "{transition}",
			"tripwire.restarts":      "{restart}",
		}, units)
		require.IsType(t, metricdata.Sum[int64]{}, ms["tripwire.calls"].Data)
		require.IsType(t, metricdata.Sum[float64]{}, ms["tripwire.call.time"].Data)
		require.True(t, ms["tripwire.call.time"].Data.(metricdata.Sum[float64]).IsMonotonic)
		require.IsType(t, metricdata.Histogram[float64]{}, ms["tripwire.call.duration"].Data)
		require.IsType(t, metricdata.Gauge[int64]{}, ms["tripwire.state"].Data)
		require.IsType(t, metricdata.Sum[int64]{}, ms["tripwire.transitions"].Data)
		require.IsType(t, metricdata.Sum[int64]{}, ms["tripwire.restarts"].Data)
		for _, name := range []string{"tripwire.calls", "tripwire.transitions", "tripwire.restarts"} {
			require.True(t, ms[name].Data.(metricdata.Sum[int64]).IsMonotonic, name)
		}
	})
}

func TestAnUnregisteredKeyLeavesEveryInstrument(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given "other", called, tripped and crashed, next to "k"
		r.register(t, "other")
		require.NoError(t, r.call("k", msgOK))
		r.trip(t, "other")
		require.NoError(t, tripwiretest.Crash(context.Background(), r.reg, "other"))
		synctest.Wait()
		require.Contains(t, keysIn(r.collect(t)), "other")

		// When "other" is unregistered
		require.NoError(t, r.reg.Unregister(context.Background(), "other"))
		synctest.Wait()

		// Then the next collection has no series of it in any instrument
		require.Equal(t, []string{"k"}, keysIn(r.collect(t)))
	})
}

// keysIn returns the tripwire.key values of every point collected.
func keysIn(ms map[string]metricdata.Metrics) []string {
	seen := map[string]bool{}
	add := func(s attribute.Set) {
		if v, ok := s.Value("tripwire.key"); ok {
			seen[v.AsString()] = true
		}
	}
	for _, m := range ms {
		switch d := m.Data.(type) {
		case metricdata.Sum[int64]:
			for _, p := range d.DataPoints {
				add(p.Attributes)
			}
		case metricdata.Sum[float64]:
			for _, p := range d.DataPoints {
				add(p.Attributes)
			}
		case metricdata.Gauge[int64]:
			for _, p := range d.DataPoints {
				add(p.Attributes)
			}
		case metricdata.Histogram[float64]:
			for _, p := range d.DataPoints {
				add(p.Attributes)
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

func TestATargetsErrorIsAFailureWhateverItWraps(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a target whose own errors wrap context.Canceled, ErrOpen
		// and ErrTimeout (a dependency's, another key's)
		// When it is called once for each (the third trips the circuit)
		for _, want := range lookalikes {
			require.Equal(t, want, r.call("k", msgLookalike))
		}

		// Then each is the key's failure, in the metrics as in its statistics
		n := int64(len(lookalikes))
		calls, durations, _ := r.outcomes(t, "k")
		require.Equal(t, map[string]int64{"failure": n}, counted(calls))
		require.Equal(t, map[string]int64{"failure": n}, durations)
		synctest.Wait()
		s, err := r.reg.Snapshot(context.Background(), "k")
		require.NoError(t, err)
		require.EqualValues(t, n, s.Stats.Total.Calls)
		require.EqualValues(t, n, s.Stats.Total.Failures)
	})
}
