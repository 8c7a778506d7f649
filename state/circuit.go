package state

import "time"

// Force is a manual override of a circuit.
type Force uint8

const (
	// NotForced: the policies decide.
	NotForced Force = iota
	// ForcedOpen: open until Reset or ForceClose.
	ForcedOpen
	// ForcedClosed: closed until Reset; counts, never trips.
	ForcedClosed
)

// Circuit is the whole state of one breaker. It is a value: Step returns a
// new one and never changes its argument.
type Circuit struct {
	Settings Settings
	State    State
	// Failures counts consecutive failures; a success resets it.
	Failures int
	Gen      Gen
	// OpenedAt and RetryAt are set when the circuit opens and kept until it
	// closes again; RetryAt is zero while forced open.
	OpenedAt time.Time
	RetryAt  time.Time
	// Probes is the number of half-open probes in flight, Passed the number
	// that succeeded in this half-open period.
	Probes int
	Passed int
	// Reopens counts re-opens since the last close (the backoff exponent).
	Reopens int
	Forced  Force

	window window
}

// New returns a closed circuit with no failures in the given incarnation.
func New(s Settings, incarnation uint64) Circuit {
	return Circuit{Settings: s, State: Closed, Gen: Gen{Incarnation: incarnation}}
}

// Rejecting reports whether an Admit now would be rejected.
func (c Circuit) Rejecting() bool {
	switch c.State {
	case Open:
		return true
	case HalfOpen:
		// With no probe out it always admits one, even if Passed already
		// reaches a HalfOpenProbes lowered meanwhile: its success closes.
		return c.Probes > 0 && c.Probes+c.Passed >= c.Settings.probes()
	}
	return false
}

// WindowRate returns the calls and failures in the failure-rate window at
// now; both are zero without a window.
func (c Circuit) WindowRate(now time.Time) (calls, fails int) {
	return c.window.rate(c.Settings.Window, now)
}

// WithSettings returns c under new settings, keeping its state and counts;
// a window of another shape (Size, Period or Buckets) starts empty. They apply from the next event.
func (c Circuit) WithSettings(s Settings) Circuit {
	if !s.Window.sameShape(c.Settings.Window) {
		c.window = window{}
	}
	c.Settings = s
	return c
}

// Step applies ev at time now and returns the next circuit. The effects it
// produces are appended to fx, which may be a reused buffer.
func Step(c Circuit, ev Event, now time.Time, fx []Effect) (Circuit, []Effect) {
	switch ev.Kind {
	case Admit:
		return admit(c, fx)
	case TimerFired:
		if c.State != Open || ev.Gen != c.Gen || c.Forced == ForcedOpen {
			return c, fx // stale timer
		}
		c.Probes, c.Passed = 0, 0
		return moveTo(c, HalfOpen, ReasonOpenTimeout, fx)
	case Succeeded, Failed, Ignored:
		if ev.Gen != c.Gen {
			return c, fx // outcome of a call admitted before the last transition
		}
		return record(c, ev, now, fx)
	case ForceOpen:
		c.Forced = ForcedOpen
		c.OpenedAt, c.RetryAt = now, time.Time{}
		return moveTo(c, Open, ReasonForcedOpen, fx)
	case ForceClose:
		c.Forced, c.Reopens = ForcedClosed, 0
		return closeCircuit(c, ReasonForcedClosed, fx)
	case Reset:
		c.Forced, c.Reopens, c.Failures = NotForced, 0, 0
		return closeCircuit(c, ReasonReset, fx)
	case TargetDown:
		if c.State == Open || c.Forced != NotForced {
			return c, fx
		}
		if c.State == HalfOpen {
			c.Reopens++
		} else {
			c.Reopens = 0
		}
		return trip(c, now, ev.Rand, ReasonTargetDown, fx)
	}
	return c, fx
}

func admit(c Circuit, fx []Effect) (Circuit, []Effect) {
	if c.Rejecting() {
		return c, append(fx, Effect{Kind: Reject, Gen: c.Gen})
	}
	if c.State == HalfOpen {
		c.Probes++
	}
	return c, append(fx, Effect{Kind: Forward, Gen: c.Gen})
}

func record(c Circuit, ev Event, now time.Time, fx []Effect) (Circuit, []Effect) {
	kind := ev.Kind
	if kind == Succeeded && c.Settings.SlowCall > 0 && ev.Duration > c.Settings.SlowCall {
		kind = Failed
	}
	switch c.State {
	case Closed:
		return recordClosed(c, kind, ev.Rand, now, fx)
	case HalfOpen:
		if c.Probes == 0 {
			return c, fx
		}
		c.Probes--
		switch kind {
		case Succeeded:
			c.Passed++
			if c.Passed >= c.Settings.probes() {
				c.Failures, c.Reopens = 0, 0
				return closeCircuit(c, ReasonProbeSucceeded, fx)
			}
		case Failed:
			c.Failures++
			reason := ReasonProbeFailed
			if ev.Timeout {
				reason = ReasonProbeTimeout
			}
			c.Reopens++
			return trip(c, now, ev.Rand, reason, fx)
		}
	}
	return c, fx
}

func recordClosed(c Circuit, kind EventKind, r float64, now time.Time, fx []Effect) (Circuit, []Effect) {
	if kind == Ignored {
		return c, fx
	}
	failed := kind == Failed
	if failed {
		c.Failures++
	} else {
		c.Failures = 0
	}
	w := c.Settings.Window
	if w.Count() || w.Timed() {
		c.window.record(w, failed, now)
		if c.Forced == NotForced && c.window.tripped(w, now) {
			c.Reopens = 0
			return trip(c, now, r, ReasonFailureRate, fx)
		}
		return c, fx
	}
	if c.Failures >= c.Settings.Threshold && c.Forced == NotForced {
		c.Reopens = 0
		return trip(c, now, r, ReasonThreshold, fx)
	}
	return c, fx
}

// trip opens the circuit at now and starts the recovery timer from that
// moment, stretched by the backoff of c.Reopens re-opens.
func trip(c Circuit, now time.Time, r float64, reason string, fx []Effect) (Circuit, []Effect) {
	after := c.Settings.openTime(c.Reopens, r)
	c.OpenedAt = now
	c.RetryAt = now.Add(after)
	c, fx = moveTo(c, Open, reason, fx)
	return c, append(fx, Effect{Kind: StartTimer, Gen: c.Gen, After: after})
}

func closeCircuit(c Circuit, reason string, fx []Effect) (Circuit, []Effect) {
	c.OpenedAt, c.RetryAt = time.Time{}, time.Time{}
	c.window = window{}
	return moveTo(c, Closed, reason, fx)
}

func moveTo(c Circuit, to State, reason string, fx []Effect) (Circuit, []Effect) {
	from := c.State
	c.State = to
	c.Gen = c.Gen.next()
	c.Probes, c.Passed = 0, 0
	return c, append(fx, Effect{Kind: Transition, Gen: c.Gen, From: from, To: to, Reason: reason})
}
