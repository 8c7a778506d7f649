package observe

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/tripwire-go/tripwire/state"
)

func TestKeyMeterRecordsOutcomeAndDuration(t *testing.T) {
	// Given metrics and recorders for two keys
	m, reader := metricsOn(t, nil)
	a, b := m.forKey("a"), m.forKey("b")

	// When a's calls succeed, time out and are rejected, and b's fails
	a.record(context.Background(), Success, 10*time.Millisecond)
	a.record(context.Background(), Success, 30*time.Millisecond)
	a.record(context.Background(), Timeout, 1500*time.Millisecond)
	a.record(context.Background(), Rejected, 0)
	b.record(context.Background(), Failure, time.Second)

	// Then tripwire.calls counts them by key and outcome
	ms := read(t, reader)
	require.Equal(t, map[string]int64{
		"tripwire.key=a,tripwire.outcome=success":  2,
		"tripwire.key=a,tripwire.outcome=timeout":  1,
		"tripwire.key=a,tripwire.outcome=rejected": 1,
		"tripwire.key=b,tripwire.outcome=failure":  1,
	}, sumPoints(t, ms["tripwire.calls"]))
	require.Equal(t, "{call}", ms["tripwire.calls"].Unit)

	// And tripwire.call.duration has their durations in seconds
	h, ok := ms["tripwire.call.duration"].Data.(metricdata.Histogram[float64])
	require.True(t, ok)
	require.Equal(t, "s", ms["tripwire.call.duration"].Unit)
	sums := map[string]float64{}
	counts := map[string]uint64{}
	for _, p := range h.DataPoints {
		key, _ := p.Attributes.Value("tripwire.key")
		outcome, _ := p.Attributes.Value("tripwire.outcome")
		k := key.Emit() + "/" + outcome.Emit()
		sums[k] += p.Sum
		counts[k] += p.Count
	}
	require.Equal(t, map[string]uint64{
		"a/success": 2, "a/timeout": 1, "a/rejected": 1, "b/failure": 1,
	}, counts)
	require.InDelta(t, 0.04, sums["a/success"], 1e-9)
	require.InDelta(t, 1.5, sums["a/timeout"], 1e-9)
	require.Zero(t, sums["a/rejected"])
	require.InDelta(t, 1.0, sums["b/failure"], 1e-9)
}

func TestStateGaugeIsOneForTheCurrentStateAndZeroForTheOthers(t *testing.T) {
	// Given two keys, one open and one half-open
	_, reader := metricsOn(t, map[string]state.State{"a": state.Open, "b": state.HalfOpen})

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
