package state

import "time"

// Settings are the rules of one circuit. Both fields must be positive; the
// caller fills in defaults.
type Settings struct {
	// Threshold is the number of consecutive failures that opens the circuit.
	Threshold int
	// OpenTimeout is how long the circuit stays open before it half-opens.
	OpenTimeout time.Duration
}

// Circuit is the whole state of one breaker. It is a value: Step returns a
// new one and never changes its argument.
type Circuit struct {
	Settings Settings
	State    State
	// Failures counts consecutive failures; a success resets it.
	Failures int
	Gen      Gen
	// OpenedAt and RetryAt are set when the circuit opens and kept until it
	// closes again.
	OpenedAt time.Time
	RetryAt  time.Time
	// Probing is true while the half-open probe is in flight.
	Probing bool
}

// New returns a closed circuit with no failures in the given incarnation.
func New(s Settings, incarnation uint64) Circuit {
	return Circuit{Settings: s, State: Closed, Gen: Gen{Incarnation: incarnation}}
}

// Step applies ev at time now and returns the next circuit. The effects it
// produces are appended to fx, which may be a reused buffer.
func Step(c Circuit, ev Event, now time.Time, fx []Effect) (Circuit, []Effect) {
	switch ev.Kind {
	case Admit:
		return admit(c, fx)
	case TimerFired:
		if c.State != Open || ev.Gen != c.Gen {
			return c, fx // stale timer
		}
		return moveTo(c, HalfOpen, fx)
	case Succeeded, Failed, Ignored:
		if ev.Gen != c.Gen {
			return c, fx // outcome of a call admitted before the last transition
		}
		return record(c, ev.Kind, now, fx)
	}
	return c, fx
}

func admit(c Circuit, fx []Effect) (Circuit, []Effect) {
	switch c.State {
	case Closed:
		return c, append(fx, Effect{Kind: Forward, Gen: c.Gen})
	case HalfOpen:
		if !c.Probing {
			c.Probing = true
			return c, append(fx, Effect{Kind: Forward, Gen: c.Gen})
		}
	}
	return c, append(fx, Effect{Kind: Reject, Gen: c.Gen})
}

func record(c Circuit, kind EventKind, now time.Time, fx []Effect) (Circuit, []Effect) {
	switch c.State {
	case Closed:
		switch kind {
		case Succeeded:
			c.Failures = 0
		case Failed:
			c.Failures++
			if c.Failures >= c.Settings.Threshold {
				return trip(c, now, fx)
			}
		}
	case HalfOpen:
		if !c.Probing {
			return c, fx
		}
		switch kind {
		case Succeeded:
			c.Failures = 0
			c.OpenedAt, c.RetryAt = time.Time{}, time.Time{}
			return moveTo(c, Closed, fx)
		case Failed:
			c.Failures++
			return trip(c, now, fx)
		case Ignored:
			c.Probing = false
		}
	}
	return c, fx
}

// trip opens the circuit at now and starts the recovery timer from that moment.
func trip(c Circuit, now time.Time, fx []Effect) (Circuit, []Effect) {
	c.OpenedAt = now
	c.RetryAt = now.Add(c.Settings.OpenTimeout)
	c, fx = moveTo(c, Open, fx)
	return c, append(fx, Effect{Kind: StartTimer, Gen: c.Gen, After: c.Settings.OpenTimeout})
}

func moveTo(c Circuit, to State, fx []Effect) (Circuit, []Effect) {
	from := c.State
	c.State = to
	c.Gen = c.Gen.next()
	c.Probing = false
	return c, append(fx, Effect{Kind: Transition, Gen: c.Gen, From: from, To: to})
}
