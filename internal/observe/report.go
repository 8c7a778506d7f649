package observe

import (
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/state"
)

// fromZero are the transitions a key reports from when it is made, at 0
// until it first makes them: every change of state a circuit can make,
// and closed → closed (a restart, or an Update, of a closed circuit). The
// two others a circuit can make, open → open and half_open → half_open (an
// Update, or ForceOpen of an open circuit, that leaves its state as it
// was), are reported once made. closed → half_open never happens.
var fromZero = [numStates][numStates]bool{
	state.Closed:   {state.Closed: true, state.Open: true},
	state.Open:     {state.Closed: true, state.HalfOpen: true},
	state.HalfOpen: {state.Closed: true, state.Open: true},
}

// unmetered is the Meter of a key nothing was counted for yet: all zeros.
// Nothing writes to it.
var unmetered tactor.Meter

// report observes a key's counts (km nil: none yet). Every series a key
// has is reported from when the key is made, at 0 until it counts, so
// that Prometheus's increase() and rate() see its first step: a series
// that appears at 1 reads as no increase.
func (m *Metrics) report(o reporter, km *tactor.Meter, ka attribute.KeyValue) {
	if km == nil {
		km = &unmetered
	}
	for l := range numLabels {
		o.int64(m.calls, km.Calls[l].Load(), ka, outcomeAttrs[l])
		if l != Rejected { // a rejection never reached the breaker: no time
			o.float64(m.time, time.Duration(km.Nanos[l].Load()).Seconds(), ka, outcomeAttrs[l])
		}
	}
	o.int64(m.restarts, km.Restarts.Load(), ka)
	tr := km.Transitions.Load()
	for from := range numStates {
		for to := range numStates {
			var n int64
			if tr != nil {
				n = tr[from][to].Load()
			}
			if n > 0 || fromZero[from][to] {
				o.int64(m.transitions, n, fromAttrs[from], ka, toAttrs[to])
			}
		}
	}
}

// reporter makes a collection's observations, all with one option slice:
// the SDK reads it during the call and keeps nothing of it, so a key's
// every series costs the SDK's work and its attribute set, not a slice
// more.
type reporter struct {
	o   metric.Observer
	opt []metric.ObserveOption // one
}

func newReporter(o metric.Observer) reporter {
	return reporter{o: o, opt: make([]metric.ObserveOption, 1)}
}

func (b reporter) int64(inst metric.Int64Observable, v int64, kvs ...attribute.KeyValue) {
	b.opt[0] = metric.WithAttributeSet(attribute.NewSet(kvs...))
	b.o.ObserveInt64(inst, v, b.opt...)
}

func (b reporter) float64(inst metric.Float64Observable, v float64, kvs ...attribute.KeyValue) {
	b.opt[0] = metric.WithAttributeSet(attribute.NewSet(kvs...))
	b.o.ObserveFloat64(inst, v, b.opt...)
}

// The attributes of outcomes and states, made once.
var (
	outcomeAttrs [numLabels]attribute.KeyValue
	stateAttrs   [numStates]attribute.KeyValue
	fromAttrs    [numStates]attribute.KeyValue
	toAttrs      [numStates]attribute.KeyValue
)

func init() {
	for l := range numLabels {
		outcomeAttrs[l] = AttrOutcome.String(l.String())
	}
	for s := range numStates {
		name := state.State(s).String()
		stateAttrs[s], fromAttrs[s], toAttrs[s] = AttrState.String(name), AttrFrom.String(name), AttrTo.String(name)
	}
}
