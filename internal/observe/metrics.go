package observe

import (
	"context"
	"sync"

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

// Metrics are Tripwire's OpenTelemetry instruments. Everything counted per
// key is observable: kept in the key's series (atomics, see series) and
// reported when a reader collects, so a key that is unregistered or
// forgotten stops being reported at the next collection. The histogram is
// the one synchronous instrument, and has no key unless ByKey asks for one.
type Metrics struct {
	duration metric.Float64Histogram
	byKey    bool // the histogram carries tripwire.key
	reg      metric.Registration

	calls       metric.Int64ObservableCounter
	time        metric.Float64ObservableCounter
	transitions metric.Int64ObservableCounter
	restarts    metric.Int64ObservableCounter
	gauge       metric.Int64ObservableGauge

	src  Source
	keys sync.Map // key -> *series: the keys with something counted
}

// StateFunc reports every key's current state to yield.
type StateFunc func(yield func(key string, s state.State))

// Source is what the metrics read of the registry when a reader collects.
type Source struct {
	States StateFunc             // every key's state, for tripwire.state
	Has    func(key string) bool // whether key is registered now
	ByKey  bool                  // tripwire.call.duration carries tripwire.key
}

// NewMetrics creates the instruments on mp, fed from src when a reader
// collects; nothing is recorded for them on the call path but atomic adds
// (and the histogram).
func NewMetrics(mp metric.MeterProvider, src Source) (*Metrics, error) {
	m := mp.Meter(Scope)
	out := &Metrics{src: src, byKey: src.ByKey}
	var err error
	if out.calls, err = m.Int64ObservableCounter("tripwire.calls", metric.WithUnit("{call}"),
		metric.WithDescription("Calls through a breaker, by key and outcome.")); err != nil {
		return nil, err
	}
	if out.time, err = m.Float64ObservableCounter("tripwire.call.time", metric.WithUnit("s"),
		metric.WithDescription("Time callers spent in calls that reached a breaker, by key and outcome; over tripwire.calls, a key's mean duration.")); err != nil {
		return nil, err
	}
	if out.duration, err = m.Float64Histogram("tripwire.call.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of calls that reached a breaker, as their callers saw it, by outcome."),
		metric.WithExplicitBucketBoundaries(DurationBuckets...)); err != nil {
		return nil, err
	}
	if out.transitions, err = m.Int64ObservableCounter("tripwire.transitions", metric.WithUnit("{transition}"),
		metric.WithDescription("Circuit state changes, by key, from and to.")); err != nil {
		return nil, err
	}
	if out.restarts, err = m.Int64ObservableCounter("tripwire.restarts", metric.WithUnit("{restart}"),
		metric.WithDescription("Breaker crash-restarts, by key.")); err != nil {
		return nil, err
	}
	if out.gauge, err = m.Int64ObservableGauge("tripwire.state", metric.WithUnit("{state}"),
		metric.WithDescription("1 for a key's current circuit state, 0 for the others.")); err != nil {
		return nil, err
	}
	out.reg, err = m.RegisterCallback(out.observe,
		out.calls, out.time, out.transitions, out.restarts, out.gauge)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Close unregisters the callback of the observable instruments.
func (m *Metrics) Close() error { return m.reg.Unregister() }

// Forget stops reporting key: its series go at the next collection.
func (m *Metrics) Forget(key string) { m.keys.Delete(key) }

// series returns key's series, made on first use.
func (m *Metrics) series(key string) *series {
	if s, ok := m.keys.Load(key); ok {
		return s.(*series)
	}
	s, _ := m.keys.LoadOrStore(key, new(series))
	return s.(*series)
}

// observe reports every key's state and every counted key's series. A key
// counted after it was forgotten (a call that finished, a transition
// delivered, after its Unregister) is dropped here instead.
func (m *Metrics) observe(_ context.Context, o metric.Observer) error {
	all := [...]state.State{state.Closed, state.Open, state.HalfOpen}
	m.src.States(func(key string, cur state.State) {
		for _, s := range all {
			v := int64(0)
			if s == cur {
				v = 1
			}
			o.ObserveInt64(m.gauge, v, metric.WithAttributes(AttrKey.String(key), AttrState.String(s.String())))
		}
	})
	m.keys.Range(func(k, v any) bool {
		key := k.(string)
		if !m.src.Has(key) {
			m.keys.CompareAndDelete(k, v)
			return true
		}
		v.(*series).report(o, m, key)
		return true
	})
	return nil
}

// outcomeSets are the histogram's attribute sets without a key, built once.
var outcomeSets = func() (opts [numLabels]metric.RecordOption) {
	for l := range numLabels {
		opts[l] = metric.WithAttributeSet(attribute.NewSet(AttrOutcome.String(l.String())))
	}
	return opts
}()
