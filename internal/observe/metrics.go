package observe

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/tripwire-go/tripwire/state"
)

// Instrumentation scope of Tripwire's meter and tracer.
const Scope = "github.com/tripwire-go/tripwire"

// DurationBuckets are the default bucket boundaries of tripwire.call.duration,
// in seconds: from a millisecond to the default CallTimeout and beyond. (The
// SDK's own defaults are sized for milliseconds.) A View still overrides them.
var DurationBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// Metrics are Tripwire's OpenTelemetry instruments.
type Metrics struct {
	calls       metric.Int64Counter
	duration    metric.Float64Histogram
	transitions metric.Int64Counter
	restarts    metric.Int64Counter
	gauge       metric.Registration
}

// StateFunc reports every key's current state to yield.
type StateFunc func(yield func(key string, s state.State))

// NewMetrics creates the instruments on mp. states feeds the tripwire.state
// gauge when a reader collects; nothing is recorded for it on the call path.
func NewMetrics(mp metric.MeterProvider, states StateFunc) (*Metrics, error) {
	m := mp.Meter(Scope)
	var err error
	var out Metrics
	if out.calls, err = m.Int64Counter("tripwire.calls", metric.WithUnit("{call}"),
		metric.WithDescription("Calls through a breaker, by key and outcome.")); err != nil {
		return nil, err
	}
	if out.duration, err = m.Float64Histogram("tripwire.call.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of calls through a breaker, as their callers saw it."),
		metric.WithExplicitBucketBoundaries(DurationBuckets...)); err != nil {
		return nil, err
	}
	if out.transitions, err = m.Int64Counter("tripwire.transitions", metric.WithUnit("{transition}"),
		metric.WithDescription("Circuit state changes, by key, from and to.")); err != nil {
		return nil, err
	}
	if out.restarts, err = m.Int64Counter("tripwire.restarts", metric.WithUnit("{restart}"),
		metric.WithDescription("Breaker crash-restarts, by key.")); err != nil {
		return nil, err
	}
	gauge, err := m.Int64ObservableGauge("tripwire.state", metric.WithUnit("{state}"),
		metric.WithDescription("1 for a key's current circuit state, 0 for the others."))
	if err != nil {
		return nil, err
	}
	all := [...]state.State{state.Closed, state.Open, state.HalfOpen}
	out.gauge, err = m.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		states(func(key string, cur state.State) {
			for _, s := range all {
				v := int64(0)
				if s == cur {
					v = 1
				}
				o.ObserveInt64(gauge, v, metric.WithAttributes(AttrKey.String(key), AttrState.String(s.String())))
			}
		})
		return nil
	}, gauge)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Close unregisters the state gauge's callback.
func (m *Metrics) Close() error { return m.gauge.Unregister() }

// keyMeter records the calls of one key, with attribute sets built once.
type keyMeter struct {
	m    *Metrics
	opts [numLabels]metric.MeasurementOption
}

// forKey returns the recorder of key's calls.
func (m *Metrics) forKey(key string) *keyMeter {
	k := &keyMeter{m: m}
	for o := range numLabels {
		k.opts[o] = metric.WithAttributeSet(attribute.NewSet(AttrKey.String(key), AttrOutcome.String(o.String())))
	}
	return k
}

// record counts one call's outcome and its duration.
func (k *keyMeter) record(ctx context.Context, o Label, d time.Duration) {
	k.m.calls.Add(ctx, 1, k.opts[o])
	k.m.duration.Record(ctx, d.Seconds(), k.opts[o])
}
