package observe

import (
	"context"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/state"
)

// Instrumentation scope of Tripwire's meter and tracer.
const Scope = "github.com/tripwire-go/tripwire"

// DurationBuckets are the default bucket boundaries of tripwire.call.duration,
// in seconds: from a millisecond to the default CallTimeout and beyond. (The
// SDK's own defaults are sized for milliseconds.) A View still overrides them.
var DurationBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// Metrics are Tripwire's OpenTelemetry instruments. Everything counted per
// key is observable: kept in the key's own Meter (atomics in its Config)
// and reported when a reader collects, from a walk of the registry's keys,
// so a key that is unregistered or forgotten is not reported by the next
// collection, and a key's series are there from its first collection, at
// 0 until they count (see report). The histogram is the one synchronous
// instrument, and has no key unless Source.ByKey asks for one.
type Metrics struct {
	duration metric.Float64Histogram
	reg      metric.Registration

	calls       metric.Int64ObservableCounter
	time        metric.Float64ObservableCounter
	transitions metric.Int64ObservableCounter
	restarts    metric.Int64ObservableCounter
	refused     metric.Int64ObservableCounter
	gauge       metric.Int64ObservableGauge

	src Source
	// tooMany counts the calls refused with ErrTooManyKeys: their key is
	// none of the registry's, so they are counted for it as a whole.
	tooMany atomic.Int64
}

// Source is what the metrics read of the registry.
type Source struct {
	// Keys reports every key: its name, its circuit's state, and its
	// Config, whose Meter holds its counts.
	Keys func(yield func(key string, s state.State, cfg *tactor.Config))
	// Config returns key's Config, or nil if key is not registered (for
	// transitions and restarts, which name their key).
	Config func(key string) *tactor.Config
	// ByKey puts tripwire.key on tripwire.call.duration.
	ByKey bool
}

// NewMetrics creates the instruments on mp, fed from src when a reader
// collects; nothing is recorded for them on the call path but atomic adds
// (and the histogram).
func NewMetrics(mp metric.MeterProvider, src Source) (*Metrics, error) {
	m := mp.Meter(Scope)
	out := &Metrics{src: src}
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
	if out.refused, err = m.Int64ObservableCounter("tripwire.keys.refused", metric.WithUnit("{call}"),
		metric.WithDescription("Calls refused with ErrTooManyKeys: their new key would have passed WithMaxKeys.")); err != nil {
		return nil, err
	}
	if out.gauge, err = m.Int64ObservableGauge("tripwire.state", metric.WithUnit("{state}"),
		metric.WithDescription("1 for a key's current circuit state, 0 for the others.")); err != nil {
		return nil, err
	}
	out.reg, err = m.RegisterCallback(out.observe,
		out.calls, out.time, out.transitions, out.restarts, out.refused, out.gauge)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Close unregisters the callback of the observable instruments.
func (m *Metrics) Close() error { return m.reg.Unregister() }

// observe reports every key's state and counts, in one walk of the keys.
func (m *Metrics) observe(_ context.Context, mo metric.Observer) error {
	o := newReporter(mo)
	m.src.Keys(func(key string, cur state.State, cfg *tactor.Config) {
		ka := AttrKey.String(key)
		for s := range numStates {
			v := int64(0)
			if state.State(s) == cur {
				v = 1
			}
			o.int64(m.gauge, v, ka, stateAttrs[s])
		}
		m.report(o, cfg.Metered(), ka)
	})
	if n := m.tooMany.Load(); n > 0 {
		mo.ObserveInt64(m.refused, n)
	}
	return nil
}

// outcomeSets are the histogram's attribute sets without a key, built once.
var outcomeSets = func() (opts [numLabels]metric.RecordOption) {
	for l := range numLabels {
		opts[l] = metric.WithAttributeSet(attribute.NewSet(AttrOutcome.String(l.String())))
	}
	return opts
}()

// A Meter has a count for each Label.
var _ [tactor.MeterOutcomes - numLabels]struct{}
var _ [numLabels - tactor.MeterOutcomes]struct{}
