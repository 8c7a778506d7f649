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

var forceNames = []string{"not_forced", "forced_open", "forced_closed"}

// String returns "not_forced", "forced_open" or "forced_closed".
func (f Force) String() string { return nameOf(f, forceNames, "unknown") }

// MarshalText writes f as String does.
func (f Force) MarshalText() ([]byte, error) { return marshalName("force", f, forceNames) }

// UnmarshalText reads what MarshalText writes.
func (f *Force) UnmarshalText(b []byte) error { return unmarshalName("force", f, b, forceNames) }

// Circuit is the whole state of one breaker. Apply changes only the circuit
// it is called on, but a plain copy shares the failure-rate window, which is
// kept apart so that a breaker without one pays nothing for it: use Clone
// for a snapshot that later events leave alone.
type Circuit struct {
	// Settings are the circuit's rules. They are shared, not copied (a
	// registry's keys with equal settings share one), so they must not be
	// changed in place: Reconfigure to others. Nil means the defaults
	// (the zero Circuit is a closed circuit under them).
	Settings *Settings
	State    State
	Forced   Force
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

	window *window // nil until a failure-rate policy records an outcome
}

// New returns a closed circuit with no failures in the given incarnation.
// It takes s as it is: check it with Validate and fill its defaults with
// WithDefaults first. Settings that skipped either make a circuit that
// never panics but keeps them literally where they are usable (a zero
// Threshold opens at the first failure, a zero MinCalls trips on the first
// call's rate) and bounds them where they are not: a time window of zero
// or negative Buckets has DefaultBuckets, and a window larger than
// MaxWindowSize or MaxWindowBuckets is cut to it. Nil s means the defaults.
func New(s *Settings, incarnation uint64) Circuit {
	return Circuit{Settings: s, State: Closed, Gen: Gen{Incarnation: incarnation}}
}

// defaultSettings are the rules of a circuit whose Settings are nil.
var defaultSettings = Settings{}.WithDefaults()

// rules are c's settings, or the defaults if it has none.
func (c *Circuit) rules() *Settings {
	if c.Settings == nil {
		return &defaultSettings
	}
	return c.Settings
}

// Clone returns a copy of c that shares nothing with it.
func (c Circuit) Clone() Circuit {
	c.window = c.window.clone()
	return c
}

// Rejecting reports whether an Admit now would be rejected.
func (c *Circuit) Rejecting() bool {
	switch c.State {
	case Open:
		return true
	case HalfOpen:
		// With no probe out it always admits one, even if Passed already
		// reaches a HalfOpenProbes lowered meanwhile: its success closes.
		return c.Probes > 0 && c.Probes+c.Passed >= c.rules().probes()
	}
	return false
}

// Quiet reports whether a success would change nothing in c and have no
// effect: closed, with no failure to reset and no failure-rate window or
// slow-call policy to feed. Its owner may then skip applying one.
func (c *Circuit) Quiet() bool {
	s := c.rules()
	w := s.Window
	return c.State == Closed && c.Failures == 0 && !w.Count() && !w.Timed() && s.SlowCall == 0
}

// WindowRate returns the calls and failures in the failure-rate window at
// now; both are zero without a window.
func (c *Circuit) WindowRate(now time.Time) (calls, fails int) {
	return c.window.rate(c.rules().Window.bounded(), now)
}

// Reconfigure puts c under new settings, keeping its state and counts; a
// window of another shape (Size, Period or Buckets) starts empty. They apply
// from the next event.
func (c *Circuit) Reconfigure(s *Settings) {
	next := s
	if next == nil {
		next = &defaultSettings
	}
	if !next.Window.sameShape(c.rules().Window) {
		c.window = nil
	}
	c.Settings = s
}

// Apply applies ev at time now: it changes c to the next circuit and appends
// the effects the owner must carry out to fx, which may be a reused buffer.
// A Circuit is a value: apply to a copy to keep the one before.
func (c *Circuit) Apply(ev Event, now time.Time, fx []Effect) []Effect {
	switch ev.Kind {
	case Admit:
		return c.admit(fx)
	case Succeeded, Failed, Ignored:
		if ev.Gen != c.Gen {
			return fx // outcome of a call admitted before the last transition
		}
		return c.record(ev, now, fx)
	case TimerFired:
		if ev.Gen != c.Gen {
			return fx // stale timer
		}
		return c.probe(ReasonOpenTimeout, fx)
	case ProbeNow:
		return c.probe(ReasonProbeNow, fx) // the armed timer is stale from now
	case ForceOpen, ForceClose, Reset:
		return c.force(ev.Kind, now, fx)
	case TargetDown:
		return c.targetDown(now, ev.Rand, fx)
	}
	return fx
}

// probe half-opens an open circuit that is not forced open, for reason.
func (c *Circuit) probe(reason Reason, fx []Effect) []Effect {
	if c.State != Open || c.Forced == ForcedOpen {
		return fx
	}
	c.Probes, c.Passed = 0, 0
	return c.moveTo(HalfOpen, reason, fx)
}

// force carries out an operator's ForceOpen, ForceClose or Reset.
func (c *Circuit) force(kind EventKind, now time.Time, fx []Effect) []Effect {
	switch kind {
	case ForceOpen:
		c.Forced = ForcedOpen
		c.OpenedAt, c.RetryAt = now, time.Time{}
		return c.moveTo(Open, ReasonForcedOpen, fx)
	case ForceClose:
		c.Forced, c.Reopens = ForcedClosed, 0
		return c.close(ReasonForcedClosed, fx)
	}
	c.Forced, c.Reopens, c.Failures = NotForced, 0, 0
	return c.close(ReasonReset, fx)
}

// targetDown opens a circuit that is neither open nor forced at once: its
// target is known to be dead.
func (c *Circuit) targetDown(now time.Time, r float64, fx []Effect) []Effect {
	if c.State == Open || c.Forced != NotForced {
		return fx
	}
	if c.State == HalfOpen {
		c.Reopens++
	} else {
		c.Reopens = 0
	}
	return c.trip(now, r, ReasonTargetDown, fx)
}

func (c *Circuit) admit(fx []Effect) []Effect {
	if c.Rejecting() {
		return append(fx, Effect{Kind: Reject, Gen: c.Gen})
	}
	if c.State == HalfOpen {
		c.Probes++
	}
	return append(fx, Effect{Kind: Forward, Gen: c.Gen})
}

func (c *Circuit) record(ev Event, now time.Time, fx []Effect) []Effect {
	kind := ev.Kind
	if slow := c.rules().SlowCall; kind == Succeeded && slow > 0 && ev.Duration > slow {
		kind = Failed
	}
	switch c.State {
	case Closed:
		return c.recordClosed(kind, ev.Rand, now, fx)
	case HalfOpen:
		if c.Probes == 0 {
			return fx
		}
		c.Probes--
		switch kind {
		case Succeeded:
			c.Passed++
			if c.Passed >= c.rules().probes() {
				c.Failures, c.Reopens = 0, 0
				return c.close(ReasonProbeSucceeded, fx)
			}
		case Failed:
			c.Failures++
			reason := ReasonProbeFailed
			if ev.Timeout {
				reason = ReasonProbeTimeout
			}
			c.Reopens++
			return c.trip(now, ev.Rand, reason, fx)
		}
	}
	return fx
}

func (c *Circuit) recordClosed(kind EventKind, r float64, now time.Time, fx []Effect) []Effect {
	if kind == Ignored {
		return fx
	}
	failed := kind == Failed
	if failed {
		c.Failures++
	} else {
		c.Failures = 0
	}
	w := c.rules().Window.bounded()
	if w.Count() || w.Timed() {
		if c.window == nil {
			c.window = newWindow(w)
		}
		c.window.record(w, failed, now)
		if c.Forced == NotForced && c.window.tripped(w, now) {
			c.Reopens = 0
			return c.trip(now, r, ReasonFailureRate, fx)
		}
		return fx
	}
	if c.Failures >= c.rules().Threshold && c.Forced == NotForced {
		c.Reopens = 0
		return c.trip(now, r, ReasonThreshold, fx)
	}
	return fx
}

// trip opens the circuit at now and starts the recovery timer from that
// moment, stretched by the backoff of c.Reopens re-opens.
func (c *Circuit) trip(now time.Time, r float64, reason Reason, fx []Effect) []Effect {
	after := c.rules().openTime(c.Reopens, r)
	c.OpenedAt = now
	c.RetryAt = now.Add(after)
	fx = c.moveTo(Open, reason, fx)
	return append(fx, Effect{Kind: StartTimer, Gen: c.Gen, After: after})
}

func (c *Circuit) close(reason Reason, fx []Effect) []Effect {
	c.OpenedAt, c.RetryAt = time.Time{}, time.Time{}
	c.window = nil
	return c.moveTo(Closed, reason, fx)
}

func (c *Circuit) moveTo(to State, reason Reason, fx []Effect) []Effect {
	from := c.State
	c.State = to
	c.Gen = c.Gen.next()
	c.Probes, c.Passed = 0, 0
	return append(fx, Effect{Kind: Moved, Gen: c.Gen, From: from, To: to, Reason: reason})
}
