package state

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// model is an independent reference breaker: it says what a circuit must
// look like after each event and which effects it must produce.
type model struct {
	s        Settings
	inc      uint64
	epoch    uint64 // transitions made so far
	state    State
	failures int
	probing  bool
	openedAt time.Time // zero while closed
}

func (m *model) gen() Gen { return Gen{Incarnation: m.inc, Seq: m.epoch} }

func (m *model) move(to State) Effect {
	from := m.state
	m.state, m.probing = to, false
	m.epoch++
	return Effect{Kind: Transition, Gen: m.gen(), From: from, To: to}
}

func (m *model) open(now time.Time) []Effect {
	m.openedAt = now
	t := m.move(Open)
	return []Effect{t, {Kind: StartTimer, Gen: m.gen(), After: m.s.OpenTimeout}}
}

// apply returns the effects the model expects for ev at now.
func (m *model) apply(ev Event, now time.Time) []Effect {
	if ev.Kind == Admit {
		ok := m.state == Closed || (m.state == HalfOpen && !m.probing)
		if !ok {
			return []Effect{{Kind: Reject, Gen: m.gen()}}
		}
		m.probing = m.state == HalfOpen
		return []Effect{{Kind: Forward, Gen: m.gen()}}
	}
	if ev.Gen != m.gen() {
		return nil
	}
	switch {
	case ev.Kind == TimerFired && m.state == Open:
		return []Effect{m.move(HalfOpen)}
	case ev.Kind == Succeeded && m.state == Closed:
		m.failures = 0
	case ev.Kind == Failed && m.state == Closed:
		if m.failures++; m.failures >= m.s.Threshold {
			return m.open(now)
		}
	case m.state == HalfOpen && m.probing && ev.Kind == Ignored:
		m.probing = false
	case m.state == HalfOpen && m.probing && ev.Kind == Succeeded:
		m.failures, m.openedAt = 0, time.Time{}
		return []Effect{m.move(Closed)}
	case m.state == HalfOpen && m.probing && ev.Kind == Failed:
		m.failures++
		return m.open(now)
	}
	return nil
}

// harness drives a real circuit and the model side by side.
type harness struct {
	t      *rapid.T
	m      model
	c      Circuit
	now    time.Time
	calls  []Gen // forwarded calls still waiting for their outcome
	timers []Gen // every timer ever started
	fx     []Effect
	seen   map[string]int // steps that changed something, by name
	tried  map[string]int // steps taken, by name
}

func (h *harness) step(ev Event, what string) {
	before := h.c
	want := h.m.apply(ev, h.now)
	var fx []Effect
	h.c, fx = Step(h.c, ev, h.now, h.fx[:0])
	h.fx = fx
	require.NoError(h.t, checkStep(before, ev, h.now, h.c, fx), "%s %+v", what, ev)
	require.Equal(h.t, want, nilIfEmpty(fx), "%s %+v", what, ev)
	for _, e := range fx {
		switch e.Kind {
		case Forward:
			h.calls = append(h.calls, e.Gen)
		case StartTimer:
			h.timers = append(h.timers, e.Gen)
		case Transition:
			h.seen[before.State.String()+"->"+e.To.String()]++
		}
	}
	h.tried[what]++
	if h.c != before || len(fx) > 0 {
		h.seen[what]++
	}
}

func (h *harness) check() {
	m, c := h.m, h.c
	require.Equal(h.t, m.state, c.State)
	require.Equal(h.t, m.failures, c.Failures)
	require.Equal(h.t, m.probing, c.Probing)
	require.Equal(h.t, m.gen(), c.Gen)
	require.True(h.t, m.openedAt.Equal(c.OpenedAt), "OpenedAt %v, model %v", c.OpenedAt, m.openedAt)
	retryAt := time.Time{}
	if m.state != Closed {
		retryAt = m.openedAt.Add(m.s.OpenTimeout)
	}
	require.True(h.t, retryAt.Equal(c.RetryAt), "RetryAt %v, model %v", c.RetryAt, retryAt)
	current := 0
	for _, g := range h.calls {
		if g == c.Gen {
			current++
		}
	}
	switch c.State {
	case HalfOpen:
		require.LessOrEqual(h.t, current, 1, "probes in flight")
		require.Equal(h.t, c.Probing, current == 1, "probing vs probes in flight")
	case Open:
		require.Zero(h.t, current, "calls admitted while open")
	}
}

func TestStepMatchesModel(t *testing.T) {
	seen, tried := map[string]int{}, map[string]int{}
	ops := []string{"admit", "admit", "admit", "outcome", "outcome", "outcome", "advance", "advance",
		"timer", "timer", "stale-timer", "foreign"}
	rapid.Check(t, func(rt *rapid.T) {
		s := Settings{
			Threshold:   rapid.IntRange(1, 4).Draw(rt, "threshold"),
			OpenTimeout: time.Duration(rapid.IntRange(1, 5).Draw(rt, "timeout")) * time.Second,
		}
		inc := rapid.Uint64Range(0, 3).Draw(rt, "incarnation")
		h := &harness{t: rt, m: model{s: s, inc: inc}, c: New(s, inc), now: t0, seen: seen, tried: tried}
		h.check()
		for n := rapid.IntRange(0, 300).Draw(rt, "steps"); n > 0; n-- {
			switch op := rapid.SampledFrom(ops).Draw(rt, "op"); op {
			case "admit":
				h.step(Event{Kind: Admit}, op)
			case "outcome":
				if len(h.calls) == 0 {
					continue
				}
				i := rapid.IntRange(0, len(h.calls)-1).Draw(rt, "call")
				g := h.calls[i]
				h.calls = append(h.calls[:i], h.calls[i+1:]...)
				kind := rapid.SampledFrom([]EventKind{Succeeded, Failed, Ignored}).Draw(rt, "kind")
				if g != h.c.Gen {
					op = "stale-outcome-in-" + h.c.State.String()
				}
				h.step(Event{Kind: kind, Gen: g}, op+"-"+kindName[kind])
			case "advance":
				if h.m.state == Open && rapid.Bool().Draw(rt, "to-retry") {
					h.now = h.m.openedAt.Add(s.OpenTimeout)
				} else {
					h.now = h.now.Add(time.Duration(rapid.IntRange(0, 2000*int(s.OpenTimeout/time.Second)).Draw(rt, "ms")) * time.Millisecond)
				}
			case "timer": // the live timer, once it is due
				if h.m.state != Open || h.now.Before(h.m.openedAt.Add(s.OpenTimeout)) {
					continue
				}
				live := h.timers[len(h.timers)-1]
				require.Equal(rt, h.m.gen(), live, "live timer gen")
				h.step(Event{Kind: TimerFired, Gen: live}, op)
			case "stale-timer":
				g := rapid.SampledFrom(append([]Gen{h.c.Gen}, h.timers...)).Draw(rt, "timer-gen")
				if h.m.state == Open && g == h.m.gen() {
					continue // that is the live timer
				}
				h.step(Event{Kind: TimerFired, Gen: g}, op)
			case "foreign": // an outcome from another incarnation of the breaker
				kind := rapid.SampledFrom([]EventKind{Succeeded, Failed, Ignored}).Draw(rt, "kind")
				h.step(Event{Kind: kind, Gen: Gen{Incarnation: inc + 1, Seq: h.c.Gen.Seq}}, op)
			}
			h.check()
		}
	})
	// The generator must actually reach every transition and the stale paths.
	for _, k := range []string{"closed->open", "open->half_open", "half_open->closed", "half_open->open",
		"outcome-ignored", "timer"} {
		require.Positive(t, seen[k], "never exercised %q: %v", k, seen)
	}
	for _, k := range []string{"stale-timer", "foreign", "stale-outcome-in-half_open-failed"} {
		require.Positive(t, tried[k], "never tried %q: %v", k, tried)
		require.Zero(t, seen[k], "%q changed something", k)
	}
	t.Logf("changed: %v", seen)
	t.Logf("tried: %v", tried)
}

var kindName = map[EventKind]string{Succeeded: "succeeded", Failed: "failed", Ignored: "ignored"}
