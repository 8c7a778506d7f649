package observe

import (
	"context"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/metric"

	"github.com/tripwire-go/tripwire/state"
)

// numStates is how many circuit states there are (Closed, Open, HalfOpen).
const numStates = 3

// series is what the metrics count of one key, read when a reader
// collects: its calls and their time by outcome, its transitions by from
// and to (made on the first), its restarts. 96 bytes a key that was called.
type series struct {
	calls       [numLabels]atomic.Int64
	nanos       [numLabels]atomic.Int64 // time callers spent, calls that reached the breaker
	restarts    atomic.Int64
	transitions atomic.Pointer[[numStates][numStates]atomic.Int64]
}

// record counts one call's outcome; a call that reached the breaker (any
// but a rejection, which never does) adds its duration to the key's time
// and to the histogram.
func (m *Metrics) record(ctx context.Context, key string, o Label, d time.Duration) {
	s := m.series(key)
	s.calls[o].Add(1)
	if o == Rejected {
		return
	}
	s.nanos[o].Add(int64(d))
	if m.byKey {
		m.duration.Record(ctx, d.Seconds(), metric.WithAttributes(AttrKey.String(key), AttrOutcome.String(o.String())))
		return
	}
	m.duration.Record(ctx, d.Seconds(), outcomeSets[o])
}

// restarted counts a restart of key's breaker.
func (m *Metrics) restarted(key string) { m.series(key).restarts.Add(1) }

// transitioned counts a transition of t.Key's circuit.
func (m *Metrics) transitioned(t state.Transition) {
	if !valid(t.From) || !valid(t.To) {
		return
	}
	s := m.series(t.Key)
	tr := s.transitions.Load()
	if tr == nil {
		s.transitions.CompareAndSwap(nil, new([numStates][numStates]atomic.Int64))
		tr = s.transitions.Load()
	}
	tr[t.From][t.To].Add(1)
}

func valid(s state.State) bool { return s >= 0 && s < numStates }

// report observes key's counts; what was never counted is not reported.
func (s *series) report(o metric.Observer, m *Metrics, key string) {
	ka := AttrKey.String(key)
	for l := range numLabels {
		n := s.calls[l].Load()
		if n == 0 {
			continue
		}
		o.ObserveInt64(m.calls, n, metric.WithAttributes(ka, AttrOutcome.String(l.String())))
		if l != Rejected { // a rejection never reached the breaker: no time
			o.ObserveFloat64(m.time, time.Duration(s.nanos[l].Load()).Seconds(),
				metric.WithAttributes(ka, AttrOutcome.String(l.String())))
		}
	}
	if n := s.restarts.Load(); n > 0 {
		o.ObserveInt64(m.restarts, n, metric.WithAttributes(ka))
	}
	tr := s.transitions.Load()
	if tr == nil {
		return
	}
	for from := range numStates {
		for to := range numStates {
			if n := tr[from][to].Load(); n > 0 {
				o.ObserveInt64(m.transitions, n, metric.WithAttributes(ka,
					AttrFrom.String(state.State(from).String()), AttrTo.String(state.State(to).String())))
			}
		}
	}
}
