package observe

import (
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/tripwire-go/tripwire/state"
)

func TestRecordCountsOutcomesTimesAndDurations(t *testing.T) {
	// Given metrics of a registry of a and b
	m, reader, k := metricsOn(t, map[string]state.State{"a": state.Closed, "b": state.Closed})
	a, b := k.add("a", state.Closed), k.add("b", state.Closed)
	ctx := context.Background()

	// When a's calls succeed, time out and are rejected, and b's fails
	m.record(ctx, a, Success, 10*time.Millisecond)
	m.record(ctx, a, Success, 30*time.Millisecond)
	m.record(ctx, a, Timeout, 1500*time.Millisecond)
	m.record(ctx, a, Rejected, 0)
	m.record(ctx, b, Failure, time.Second)

	// Then tripwire.calls counts them by key and outcome
	ms := read(t, reader)
	require.Equal(t, map[string]int64{
		"tripwire.key=a,tripwire.outcome=success":  2,
		"tripwire.key=a,tripwire.outcome=timeout":  1,
		"tripwire.key=a,tripwire.outcome=rejected": 1,
		"tripwire.key=b,tripwire.outcome=failure":  1,
	}, counted(sumPoints(t, ms["tripwire.calls"])))
	require.Equal(t, "{call}", ms["tripwire.calls"].Unit)

	// And tripwire.call.time sums the durations of the calls that reached
	// a breaker, by key and outcome (a rejection has none)
	require.Equal(t, "s", ms["tripwire.call.time"].Unit)
	times := counted(counterPoints[float64](t, ms["tripwire.call.time"]))
	require.Len(t, times, 3)
	require.InDelta(t, 0.04, times["tripwire.key=a,tripwire.outcome=success"], 1e-9)
	require.InDelta(t, 1.5, times["tripwire.key=a,tripwire.outcome=timeout"], 1e-9)
	require.InDelta(t, 1.0, times["tripwire.key=b,tripwire.outcome=failure"], 1e-9)

	// And tripwire.call.duration has them by outcome alone, in seconds
	require.Equal(t, "s", ms["tripwire.call.duration"].Unit)
	counts, sums := histogramPoints(t, ms["tripwire.call.duration"])
	require.Equal(t, map[string]uint64{
		"tripwire.outcome=success": 2, "tripwire.outcome=timeout": 1, "tripwire.outcome=failure": 1,
	}, counts)
	require.InDelta(t, 0.04, sums["tripwire.outcome=success"], 1e-9)
	require.InDelta(t, 1.5, sums["tripwire.outcome=timeout"], 1e-9)
	require.InDelta(t, 1.0, sums["tripwire.outcome=failure"], 1e-9)
}

func TestAKeysSeriesAreReportedAtZeroFromWhenItIsMade(t *testing.T) {
	// Given metrics of a registry of a key that nothing happened to yet
	m, reader, k := metricsOn(t, map[string]state.State{"a": state.Closed})

	// When the reader collects
	ms := read(t, reader)

	// Then every series the key counts in is there at 0, so that a
	// Prometheus increase() sees its first step as 0 → 1: each outcome's
	// calls, the time of each outcome but rejected, restarts, and each
	// transition but open → open and half_open → half_open (an operator's
	// that changes nothing) and closed → half_open (none)
	require.Equal(t, map[string]int64{
		"tripwire.key=a,tripwire.outcome=success":  0,
		"tripwire.key=a,tripwire.outcome=failure":  0,
		"tripwire.key=a,tripwire.outcome=timeout":  0,
		"tripwire.key=a,tripwire.outcome=rejected": 0,
		"tripwire.key=a,tripwire.outcome=canceled": 0,
	}, sumPoints(t, ms["tripwire.calls"]))
	require.Equal(t, map[string]float64{
		"tripwire.key=a,tripwire.outcome=success":  0,
		"tripwire.key=a,tripwire.outcome=failure":  0,
		"tripwire.key=a,tripwire.outcome=timeout":  0,
		"tripwire.key=a,tripwire.outcome=canceled": 0,
	}, counterPoints[float64](t, ms["tripwire.call.time"]))
	require.Equal(t, map[string]int64{"tripwire.key=a": 0}, sumPoints(t, ms["tripwire.restarts"]))
	zeroTransitions := map[string]int64{
		"tripwire.from=closed,tripwire.key=a,tripwire.to=open":      0,
		"tripwire.from=closed,tripwire.key=a,tripwire.to=closed":    0,
		"tripwire.from=open,tripwire.key=a,tripwire.to=half_open":   0,
		"tripwire.from=open,tripwire.key=a,tripwire.to=closed":      0,
		"tripwire.from=half_open,tripwire.key=a,tripwire.to=open":   0,
		"tripwire.from=half_open,tripwire.key=a,tripwire.to=closed": 0,
	}
	require.Equal(t, zeroTransitions, sumPoints(t, ms["tripwire.transitions"]))
	require.Nil(t, k.cfgs["a"].Metered(), "reporting zeros made the key counters")

	// When it makes a transition reported only once made (an Update that
	// leaves it open), and trips
	m.transitioned(state.Transition{Key: "a", From: state.Open, To: state.Open})
	m.transitioned(state.Transition{Key: "a", From: state.Closed, To: state.Open})

	// Then that transition is reported from then on, and the trip counts
	// on the series that was there at 0
	want := maps.Clone(zeroTransitions)
	want["tripwire.from=open,tripwire.key=a,tripwire.to=open"] = 1
	want["tripwire.from=closed,tripwire.key=a,tripwire.to=open"] = 1
	require.Equal(t, want, sumPoints(t, read(t, reader)["tripwire.transitions"]))
}

func TestLatencyByKeyPutsTheKeyOnTheHistogram(t *testing.T) {
	// Given metrics whose histogram is by key
	k := &testKeys{}
	a, b := k.add("a", state.Closed), k.add("b", state.Closed)
	m, reader := metricsWith(t, k.source(true))

	// When a and b are called
	m.record(context.Background(), a, Success, 10*time.Millisecond)
	m.record(context.Background(), b, Failure, 20*time.Millisecond)

	// Then the histogram has each key's outcome
	counts, _ := histogramPoints(t, read(t, reader)["tripwire.call.duration"])
	require.Equal(t, map[string]uint64{
		"tripwire.key=a,tripwire.outcome=success": 1, "tripwire.key=b,tripwire.outcome=failure": 1,
	}, counts)
}

func TestAKeyThatLeftTheRegistryLeavesEveryKeyedInstrument(t *testing.T) {
	// Given metrics that counted calls, transitions and restarts of a and b
	m, reader, k := metricsOn(t, map[string]state.State{"a": state.Open, "b": state.Open})
	for _, key := range []string{"a", "b"} {
		m.record(context.Background(), k.add(key, state.Open), Failure, time.Millisecond)
		m.transitioned(state.Transition{Key: key, From: state.Closed, To: state.Open})
		m.restarted(key)
	}
	require.Len(t, counted(sumPoints(t, read(t, reader)["tripwire.calls"])), 2)

	// When a leaves the registry (unregistered, or forgotten by WithMaxKeys)
	k.remove("a")

	// Then the next collection reports b alone, in every keyed instrument:
	// its counts, and its series still at 0
	after := read(t, reader)
	require.Equal(t, map[string]int64{"tripwire.key=b,tripwire.outcome=failure": 1},
		counted(sumPoints(t, after["tripwire.calls"])))
	require.Equal(t, []string{"tripwire.key=b,tripwire.outcome=failure"}, keysOf(counted(counterPoints[float64](t, after["tripwire.call.time"]))))
	require.Equal(t, map[string]int64{"tripwire.from=closed,tripwire.key=b,tripwire.to=open": 1},
		counted(sumPoints(t, after["tripwire.transitions"])))
	require.Equal(t, map[string]int64{"tripwire.key=b": 1}, sumPoints(t, after["tripwire.restarts"]))
	require.Len(t, gaugePoints(t, after["tripwire.state"]), 3)
	for _, name := range []string{"tripwire.calls", "tripwire.transitions", "tripwire.restarts"} {
		for series := range sumPoints(t, after[name]) {
			require.NotContains(t, series, "tripwire.key=a", name)
		}
	}
	for series := range counterPoints[float64](t, after["tripwire.call.time"]) {
		require.NotContains(t, series, "tripwire.key=a", "tripwire.call.time")
	}
}

func TestATransitionOrRestartOfAKeyThatLeftIsNotCounted(t *testing.T) {
	// Given metrics of a registry that has b but no longer a
	m, reader, _ := metricsOn(t, map[string]state.State{"b": state.Closed})

	// When a transition and a restart of a are delivered late, and b trips
	m.transitioned(state.Transition{Key: "a", From: state.Closed, To: state.Open})
	m.restarted("a")
	m.transitioned(state.Transition{Key: "b", From: state.Closed, To: state.Open})

	// Then only b's is reported
	ms := read(t, reader)
	require.Equal(t, map[string]int64{"tripwire.from=closed,tripwire.key=b,tripwire.to=open": 1},
		counted(sumPoints(t, ms["tripwire.transitions"])))
	require.Equal(t, map[string]int64{"tripwire.key=b": 0}, sumPoints(t, ms["tripwire.restarts"]))
}

func TestCallsRefusedForTooManyKeysAreCountedForTheRegistry(t *testing.T) {
	// Given metrics, when two calls are refused with ErrTooManyKeys
	m, reader, _ := metricsOn(t, nil)
	NewCalls(m, nil).RefusedKey()
	NewCalls(m, nil).RefusedKey()

	// Then tripwire.keys.refused counts them, with no key
	require.Equal(t, map[string]int64{"": 2}, sumPoints(t, read(t, reader)["tripwire.keys.refused"]))
}

// gaugePoints returns an int64 gauge's points as "attr=value,..." -> value.
func gaugePoints(t *testing.T, m metricdata.Metrics) map[string]int64 {
	t.Helper()
	g, ok := m.Data.(metricdata.Gauge[int64])
	require.True(t, ok, "%s is a %T", m.Name, m.Data)
	out := map[string]int64{}
	for _, p := range g.DataPoints {
		out[p.Attributes.Encoded(attribute.DefaultEncoder())] = p.Value
	}
	return out
}

// histogramPoints returns a histogram's counts and sums by attributes.
func histogramPoints(t *testing.T, m metricdata.Metrics) (map[string]uint64, map[string]float64) {
	t.Helper()
	h, ok := m.Data.(metricdata.Histogram[float64])
	require.True(t, ok, "%s is a %T", m.Name, m.Data)
	counts, sums := map[string]uint64{}, map[string]float64{}
	for _, p := range h.DataPoints {
		k := p.Attributes.Encoded(attribute.DefaultEncoder())
		counts[k] += p.Count
		sums[k] += p.Sum
	}
	return counts, sums
}

func keysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestStateGaugeIsOneForTheCurrentStateAndZeroForTheOthers(t *testing.T) {
	// Given two keys, one open and one half-open
	_, reader, _ := metricsOn(t, map[string]state.State{"a": state.Open, "b": state.HalfOpen})

	// When the reader collects
	m := read(t, reader)["tripwire.state"]

	// Then each key has one point per state, 1 for its own
	require.Equal(t, "{state}", m.Unit)
	g, ok := m.Data.(metricdata.Gauge[int64])
	require.True(t, ok, "%T", m.Data)
	got := map[string]int64{}
	for _, p := range g.DataPoints {
		got[p.Attributes.Encoded(attribute.DefaultEncoder())] = p.Value
	}
	require.Equal(t, map[string]int64{
		"tripwire.key=a,tripwire.state=closed":    0,
		"tripwire.key=a,tripwire.state=open":      1,
		"tripwire.key=a,tripwire.state=half_open": 0,
		"tripwire.key=b,tripwire.state=closed":    0,
		"tripwire.key=b,tripwire.state=open":      0,
		"tripwire.key=b,tripwire.state=half_open": 1,
	}, got)
}
