package state

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// outcome is one counted call in the model's failure-rate window.
type outcome struct {
	at     time.Time
	failed bool
}

// model is an independent reference breaker: it says what a circuit must
// look like after each event and which effects it must produce.
type model struct {
	s        Settings
	inc      uint64
	epoch    uint64 // transitions made so far
	state    State
	failures int
	probes   int // probes in flight
	passed   int // probes that succeeded in this half-open period
	reopens  int
	forced   Force
	openedAt time.Time // zero while closed
	retryAt  time.Time // zero while closed or forced open
	window   []outcome // every counted outcome since the window was last cleared
}

func (m *model) gen() Gen { return Gen{Incarnation: m.inc, Seq: m.epoch} }

func (m *model) permits() int { return max(1, m.s.HalfOpenProbes) }

func (m *model) move(to State, reason Reason) Effect {
	from := m.state
	m.state, m.probes, m.passed = to, 0, 0
	m.epoch++
	return Effect{Kind: Moved, Gen: m.gen(), From: from, To: to, Reason: reason}
}

// openFor is the documented open time: OpenTimeout*Multiplier^reopens capped
// at Max, spread by ±Jitter with r, capped at Max again.
func (m *model) openFor(r float64) time.Duration {
	b := m.s.Backoff
	d := float64(m.s.OpenTimeout)
	if b.Multiplier > 1 {
		d *= math.Pow(b.Multiplier, float64(m.reopens))
	}
	if b.Max > 0 && d > float64(b.Max) {
		d = float64(b.Max)
	}
	d *= 1 + b.Jitter*(2*r-1)
	if b.Max > 0 && d > float64(b.Max) {
		d = float64(b.Max)
	}
	return time.Duration(min(d, math.MaxInt64))
}

func (m *model) open(now time.Time, r float64, reason Reason) []Effect {
	after := m.openFor(r)
	m.openedAt, m.retryAt = now, now.Add(after)
	t := m.move(Open, reason)
	return []Effect{t, {Kind: StartTimer, Gen: m.gen(), After: after}}
}

func (m *model) close(reason Reason) []Effect {
	m.openedAt, m.retryAt, m.window, m.reopens = time.Time{}, time.Time{}, nil, 0
	return []Effect{m.move(Closed, reason)}
}

// rate counts the outcomes the window holds at now: the last Size ones of a
// count window; those of a time window since the start of its oldest live
// bucket, buckets being Period/Buckets wide and counted from the window's
// first outcome.
func (m *model) rate(now time.Time) (calls, fails int) {
	w := m.s.Window
	var live []outcome
	switch {
	case w.Size > 0:
		live = m.window[max(0, len(m.window)-w.Size):]
	case w.Period > 0:
		if len(m.window) == 0 {
			break
		}
		width := max(1, int64(w.Period)/int64(w.Buckets))
		origin := m.window[0].at
		start := (int64(now.Sub(origin))/width - int64(w.Buckets) + 1) * width
		for _, o := range m.window {
			if int64(o.at.Sub(origin)) >= start {
				live = append(live, o)
			}
		}
	}
	for _, o := range live {
		calls++
		if o.failed {
			fails++
		}
	}
	return calls, fails
}

func (m *model) count(failed bool, now time.Time, r float64) []Effect {
	if failed {
		m.failures++
	} else {
		m.failures = 0
	}
	w := m.s.Window
	if w.Size > 0 || w.Period > 0 {
		m.window = append(m.window, outcome{now, failed})
		calls, fails := m.rate(now)
		if m.forced == NotForced && calls > 0 && calls >= w.MinCalls && float64(fails)/float64(calls) >= w.FailureRate {
			m.reopens = 0
			return m.open(now, r, ReasonFailureRate)
		}
		return nil
	}
	if failed && m.forced == NotForced && m.failures >= m.s.Threshold {
		m.reopens = 0
		return m.open(now, r, ReasonThreshold)
	}
	return nil
}

// apply returns the effects the model expects for ev at now.
func (m *model) apply(ev Event, now time.Time) []Effect {
	switch ev.Kind {
	case Admit:
		if m.state == Open || (m.state == HalfOpen && m.probes > 0 && m.probes+m.passed >= m.permits()) {
			return []Effect{{Kind: Reject, Gen: m.gen()}}
		}
		if m.state == HalfOpen {
			m.probes++
		}
		return []Effect{{Kind: Forward, Gen: m.gen()}}
	case ForceOpen:
		m.forced = ForcedOpen
		m.openedAt, m.retryAt = now, time.Time{}
		return []Effect{m.move(Open, ReasonForcedOpen)}
	case ForceClose:
		m.forced = ForcedClosed
		return m.close(ReasonForcedClosed)
	case Reset:
		m.forced, m.failures = NotForced, 0
		return m.close(ReasonReset)
	case TargetDown:
		if m.state == Open || m.forced != NotForced {
			return nil
		}
		if m.state == HalfOpen {
			m.reopens++
		} else {
			m.reopens = 0
		}
		return m.open(now, ev.Rand, ReasonTargetDown)
	case TimerFired:
		if ev.Gen == m.gen() && m.state == Open && m.forced != ForcedOpen {
			return []Effect{m.move(HalfOpen, ReasonOpenTimeout)}
		}
		return nil
	case ProbeNow:
		if m.state == Open && m.forced != ForcedOpen {
			return []Effect{m.move(HalfOpen, ReasonProbeNow)}
		}
		return nil
	case Succeeded, Failed, Ignored:
	default:
		return nil
	}
	if ev.Gen != m.gen() {
		return nil
	}
	failed := ev.Kind == Failed || (ev.Kind == Succeeded && m.s.SlowCall > 0 && ev.Duration > m.s.SlowCall)
	switch {
	case m.state == Closed && ev.Kind != Ignored:
		return m.count(failed, now, ev.Rand)
	case m.state != HalfOpen || m.probes == 0:
		return nil
	}
	m.probes--
	switch {
	case ev.Kind == Ignored:
		return nil
	case failed:
		m.failures++
		m.reopens++
		reason := ReasonProbeFailed
		if ev.Kind == Failed && ev.Timeout {
			reason = ReasonProbeTimeout
		}
		return m.open(now, ev.Rand, reason)
	}
	if m.passed++; m.passed < m.permits() {
		return nil
	}
	m.failures = 0
	return m.close(ReasonProbeSucceeded)
}

// update is WithSettings: the state and counts stay; a window of another
// shape starts empty.
func (m *model) update(s Settings) {
	if s.Window.Size != m.s.Window.Size || s.Window.Period != m.s.Window.Period || s.Window.Buckets != m.s.Window.Buckets {
		m.window = nil
	}
	m.s = s
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
	before := h.c.Clone()
	want := h.m.apply(ev, h.now)
	var fx []Effect
	h.c, fx = applyTo(h.c, ev, h.now, h.fx[:0])
	h.fx = fx
	require.NoError(h.t, checkStep(before, ev, h.now, h.c, fx), "%s %+v", what, ev)
	require.Equal(h.t, want, nilIfEmpty(fx), "%s %+v", what, ev)
	for _, e := range fx {
		switch e.Kind {
		case Forward:
			h.calls = append(h.calls, e.Gen)
		case StartTimer:
			h.timers = append(h.timers, e.Gen)
		case Moved:
			h.seen[before.State.String()+"->"+e.To.String()]++
			h.seen[e.Reason.String()]++
			switch s := before.Settings; {
			case e.To == Open && ev.Kind == Succeeded:
				h.seen["slow-call-opens"]++
			case e.To == Open && h.c.Reopens >= 1 && s.Backoff.Multiplier > 1:
				h.seen["backoff"]++
			}
		}
	}
	if ev.Kind == Succeeded && h.c.Passed > before.Passed {
		h.seen["probe-passed-not-last"]++
	}
	h.tried[what]++
	if !reflect.DeepEqual(h.c, before) || len(fx) > 0 {
		h.seen[what]++
	}
}

func (h *harness) check() {
	m, c := h.m, h.c
	require.Equal(h.t, m.s, *c.Settings)
	require.Equal(h.t, m.state, c.State)
	require.Equal(h.t, m.failures, c.Failures)
	require.Equal(h.t, m.probes, c.Probes, "probes")
	require.Equal(h.t, m.passed, c.Passed, "passed")
	require.Equal(h.t, m.reopens, c.Reopens, "reopens")
	require.Equal(h.t, m.forced, c.Forced, "forced")
	require.Equal(h.t, m.gen(), c.Gen)
	require.True(h.t, m.openedAt.Equal(c.OpenedAt), "OpenedAt %v, model %v", c.OpenedAt, m.openedAt)
	require.True(h.t, m.retryAt.Equal(c.RetryAt), "RetryAt %v, model %v", c.RetryAt, m.retryAt)
	require.Equal(h.t, m.state == Open || (m.state == HalfOpen && m.probes > 0 && m.probes+m.passed >= m.permits()), c.Rejecting(), "Rejecting")
	if windowed(m.s) {
		calls, fails := m.rate(h.now)
		gotCalls, gotFails := c.WindowRate(h.now)
		require.Equal(h.t, [2]int{calls, fails}, [2]int{gotCalls, gotFails}, "window calls, fails at %v", h.now)
	}
	require.NoError(h.t, checkCircuit(c, h.now))
	current := 0
	for _, g := range h.calls {
		if g == c.Gen {
			current++
		}
	}
	switch c.State {
	case HalfOpen:
		require.Equal(h.t, c.Probes, current, "probes in flight")
	case Open:
		require.Zero(h.t, current, "calls admitted while open")
	}
}

// drawSettings draws a policy: consecutive failures, a count window or a
// time window, with or without SlowCall, backoff and several probes. Failure
// rates are dyadic so that "reaches the rate" has no rounding question (see
// window_edge_test.go for one that has).
func drawSettings(t *rapid.T, probes int) Settings {
	timeout := time.Duration(rapid.IntRange(1, 5).Draw(t, "timeout")) * time.Second
	s := Settings{
		Threshold:      rapid.IntRange(1, 4).Draw(t, "threshold"),
		OpenTimeout:    timeout,
		HalfOpenProbes: probes,
	}
	rate := rapid.SampledFrom([]float64{0.25, 0.5, 0.75, 1}).Draw(t, "rate")
	switch rapid.IntRange(0, 2).Draw(t, "policy") {
	case 1:
		size := rapid.IntRange(1, 8).Draw(t, "size")
		s.Window = Window{Size: size, MinCalls: rapid.IntRange(0, size+1).Draw(t, "min"), FailureRate: rate}
	case 2:
		s.Window = Window{
			Period:      time.Duration(rapid.IntRange(1, 4000).Draw(t, "period-ms")) * time.Millisecond,
			Buckets:     rapid.IntRange(1, 5).Draw(t, "buckets"),
			MinCalls:    rapid.IntRange(0, 5).Draw(t, "min"),
			FailureRate: rate,
		}
	}
	if rapid.Bool().Draw(t, "slow") {
		s.SlowCall = time.Duration(rapid.IntRange(1, 3).Draw(t, "slow-s")) * time.Second
	}
	if rapid.Bool().Draw(t, "backoff") {
		// Max is always set so that open times stay within a few minutes
		// and the clock stays where UnixNano is defined.
		s.Backoff = Backoff{
			Multiplier: rapid.SampledFrom([]float64{0, 1, 1.5, 2, 3}).Draw(t, "multiplier"),
			Max:        timeout * time.Duration(rapid.IntRange(1, 20).Draw(t, "max-x")),
			Jitter:     rapid.SampledFrom([]float64{0, 0.1, 0.5, 1}).Draw(t, "jitter"),
		}
	}
	return s
}

func TestStepMatchesModel(t *testing.T) {
	seen, tried := map[string]int{}, map[string]int{}
	// rapid draws small indexes more often, so the list starts with what
	// moves a circuit along.
	ops := []string{"outcome", "timer", "advance", "admit", "outcome", "timer", "admit", "outcome", "advance", "admit",
		"outcome", "admit", "stale-timer", "foreign", "admit", "outcome", "manual"}
	manual := []string{"force-open", "force-close", "reset", "reset", "target-down", "target-down", "update", "update"}
	property := func(rt *rapid.T) {
		probes := rapid.SampledFrom([]int{2, 3, 0, 1}).Draw(rt, "probes") // 0 means 1
		s := drawSettings(rt, probes)
		inc := rapid.Uint64Range(0, 3).Draw(rt, "incarnation")
		h := &harness{t: rt, m: model{s: s, inc: inc}, c: newCircuit(s, inc), now: t0, seen: seen, tried: tried}
		h.check()
		for n := rapid.IntRange(0, 300).Draw(rt, "steps"); n > 0; n-- {
			op := rapid.SampledFrom(ops).Draw(rt, "op")
			if op == "manual" {
				op = rapid.SampledFrom(manual).Draw(rt, "manual")
			}
			switch op {
			case "admit":
				h.step(Event{Kind: Admit}, op)
			case "outcome":
				if len(h.calls) == 0 {
					continue
				}
				i := rapid.IntRange(0, len(h.calls)-1).Draw(rt, "call")
				g := h.calls[i]
				h.calls = append(h.calls[:i], h.calls[i+1:]...)
				kind := rapid.SampledFrom([]EventKind{Succeeded, Failed, Succeeded, Ignored}).Draw(rt, "kind")
				ev := Event{Kind: kind, Gen: g,
					Duration: time.Duration(rapid.IntRange(0, 4).Draw(rt, "duration-s")) * time.Second,
					Timeout:  kind == Failed && rapid.Bool().Draw(rt, "timeout"), // a deadline is a failure
					Rand:     rapid.Float64Range(0, 0.999999).Draw(rt, "rand")}
				if g != h.c.Gen {
					op = "stale-outcome-in-" + h.c.State.String()
				}
				h.step(ev, op+"-"+kindName[kind])
			case "advance":
				if h.m.state == Open && h.m.forced == NotForced && rapid.Bool().Draw(rt, "to-retry") {
					h.now = h.m.retryAt
				} else {
					h.now = h.now.Add(time.Duration(rapid.IntRange(0, 2000*int(h.m.s.OpenTimeout/time.Second)).Draw(rt, "ms")) * time.Millisecond)
				}
			case "timer": // the live timer, once it is due
				if h.m.state != Open || h.m.forced != NotForced {
					continue
				}
				if h.now.Before(h.m.retryAt) {
					if !rapid.Bool().Draw(rt, "wait-for-timer") {
						continue
					}
					h.now = h.m.retryAt
				}
				live := h.timers[len(h.timers)-1]
				require.Equal(rt, h.m.gen(), live, "live timer gen")
				h.step(Event{Kind: TimerFired, Gen: live}, op)
			case "stale-timer":
				g := rapid.SampledFrom(append([]Gen{h.c.Gen}, h.timers...)).Draw(rt, "timer-gen")
				if h.m.state == Open && h.m.forced == NotForced && g == h.m.gen() {
					continue // that is the live timer
				}
				h.step(Event{Kind: TimerFired, Gen: g}, op)
			case "foreign": // an outcome from another incarnation of the breaker
				kind := rapid.SampledFrom([]EventKind{Succeeded, Failed, Ignored}).Draw(rt, "kind")
				h.step(Event{Kind: kind, Gen: Gen{Incarnation: inc + 1, Seq: h.c.Gen.Seq}}, op)
			case "force-open":
				h.step(Event{Kind: ForceOpen}, op)
			case "force-close":
				h.step(Event{Kind: ForceClose}, op)
			case "reset":
				h.step(Event{Kind: Reset}, op)
			case "target-down":
				h.step(Event{Kind: TargetDown, Rand: rapid.Float64Range(0, 0.999999).Draw(rt, "rand")}, op+"-"+h.c.State.String())
			case "update":
				// New settings apply from the next event. The open timing
				// only changes while closed (an open circuit keeps the
				// RetryAt it was given), and HalfOpenProbes stays: lowering
				// it mid half-open is settings_update_test.go.
				ns := drawSettings(rt, probes)
				if h.m.state != Closed {
					ns.OpenTimeout, ns.Backoff = h.m.s.OpenTimeout, h.m.s.Backoff
				}
				h.m.update(ns)
				h.c = withSettings(h.c, ns)
				h.tried[op]++
			}
			h.check()
		}
	}
	// The generator must actually reach every transition, reason and the
	// stale paths. A rare path may be missed in one round of 100 runs, so
	// up to three rounds run until every one was reached.
	mustChange := []string{"closed->open", "open->half_open", "half_open->closed", "half_open->open",
		"closed->closed", "open->open", "open->closed", "half_open->closed",
		ReasonThreshold.String(), ReasonFailureRate.String(), ReasonProbeFailed.String(), ReasonProbeTimeout.String(), ReasonOpenTimeout.String(),
		ReasonProbeSucceeded.String(), ReasonTargetDown.String(), ReasonForcedOpen.String(), ReasonForcedClosed.String(), ReasonReset.String(),
		"outcome-ignored", "timer", "target-down-closed", "target-down-half_open",
		"slow-call-opens", "backoff", "probe-passed-not-last"}
	mustTry := []string{"stale-timer", "foreign", "stale-outcome-in-half_open-failed", "target-down-open",
		"stale-outcome-in-closed-failed", "update"}
	covered := func() bool {
		for _, k := range mustChange {
			if seen[k] == 0 {
				return false
			}
		}
		for _, k := range mustTry {
			if tried[k] == 0 {
				return false
			}
		}
		return true
	}
	for round := 0; round < 3 && !t.Failed() && (round == 0 || !covered()); round++ {
		rapid.Check(t, property)
	}
	for _, k := range mustChange {
		require.Positive(t, seen[k], "never exercised %q: %v", k, seen)
	}
	for _, k := range mustTry {
		require.Positive(t, tried[k], "never tried %q: %v", k, tried)
		require.Zero(t, seen[k], "%q changed something", k)
	}
	t.Logf("changed: %v", seen)
	t.Logf("tried: %v", tried)
}

var kindName = map[EventKind]string{Succeeded: "succeeded", Failed: "failed", Ignored: "ignored"}
