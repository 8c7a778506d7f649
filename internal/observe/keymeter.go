package observe

import (
	"context"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/metric"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/state"
)

// numStates is how many circuit states there are (Closed, Open, HalfOpen).
const numStates = tactor.MeterStates

// record counts one call of cfg's key with outcome o; a call that reached
// the breaker (any but a rejection, which never does) adds its duration to
// the key's time and to the histogram.
func (m *Metrics) record(ctx context.Context, cfg *tactor.Config, o Label, d time.Duration) {
	km := cfg.Meter()
	km.Calls[o].Add(1)
	if o == Rejected {
		return
	}
	km.Nanos[o].Add(int64(d))
	if m.src.ByKey {
		m.duration.Record(ctx, d.Seconds(), metric.WithAttributes(AttrKey.String(cfg.Key), AttrOutcome.String(o.String())))
		return
	}
	m.duration.Record(ctx, d.Seconds(), outcomeSets[o])
}

// refusedKey counts a call refused with ErrTooManyKeys.
func (m *Metrics) refusedKey() { m.tooMany.Add(1) }

// restarted counts a restart of key's breaker, if key is registered.
func (m *Metrics) restarted(key string) {
	if cfg := m.src.Config(key); cfg != nil {
		cfg.Meter().Restarts.Add(1)
	}
}

// transitioned counts a transition of t.Key's circuit, if t.Key is
// registered (a transition delivered after its key left is not).
func (m *Metrics) transitioned(t state.Transition) {
	if !valid(t.From) || !valid(t.To) {
		return
	}
	cfg := m.src.Config(t.Key)
	if cfg == nil {
		return
	}
	km := cfg.Meter()
	tr := km.Transitions.Load()
	if tr == nil {
		km.Transitions.CompareAndSwap(nil, new([numStates][numStates]atomic.Int64))
		tr = km.Transitions.Load()
	}
	tr[t.From][t.To].Add(1)
}

func valid(s state.State) bool { return s >= 0 && s < numStates }
