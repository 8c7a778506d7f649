package state

import (
	"fmt"
	"math"
	"time"
)

// slow reports whether ev is a success that counts as a failure under s.
func slow(s Settings, ev Event) bool {
	return ev.Kind == Succeeded && s.SlowCall > 0 && ev.Duration > s.SlowCall
}

// windowed reports whether s trips on a failure rate.
func windowed(s Settings) bool { return s.Window.Size > 0 || s.Window.Period > 0 }

// openBounds returns the shortest and longest open time s allows after
// reopens re-opens, computed from the documented formula rather than from
// openTime: base = min(Max, OpenTimeout*Multiplier^reopens), spread by
// ±Jitter and capped at Max again.
func openBounds(s Settings, reopens int) (lo, hi float64) {
	base := float64(s.OpenTimeout)
	if m := s.Backoff.Multiplier; m > 1 {
		for i := 0; i < reopens && base < math.MaxInt64; i++ {
			base *= m
		}
	}
	hiCap := math.Inf(1)
	if s.Backoff.Max > 0 {
		hiCap = float64(s.Backoff.Max)
	}
	base = math.Min(base, hiCap)
	lo = base * (1 - s.Backoff.Jitter)
	hi = math.Min(math.Min(hiCap, base*(1+s.Backoff.Jitter)), math.MaxInt64)
	lo = math.Min(lo, hi)
	return lo, hi
}

// checkOpenTime checks an open time against openBounds, allowing for float
// rounding.
func checkOpenTime(s Settings, reopens int, d time.Duration) error {
	lo, hi := openBounds(s, reopens)
	slack := math.Max(2, hi*1e-9)
	if d < 0 || float64(d) < lo-slack || float64(d) > hi+slack {
		return fmt.Errorf("open time %v after %d re-opens outside [%v, %v] for %+v",
			d, reopens, time.Duration(lo), time.Duration(hi), s.Backoff)
	}
	return nil
}

// reasonOK says which reasons a transition caused by ev from before may
// carry.
func reasonOK(before Circuit, ev Event, e Effect) bool {
	s := *before.Settings
	failed := ev.Kind == Failed || slow(s, ev)
	switch {
	case ev.Kind == ForceOpen:
		return e.To == Open && e.Reason == ReasonForcedOpen
	case ev.Kind == ForceClose:
		return e.To == Closed && e.Reason == ReasonForcedClosed
	case ev.Kind == Reset:
		return e.To == Closed && e.Reason == ReasonReset
	case ev.Kind == TargetDown:
		return e.From != Open && e.To == Open && e.Reason == ReasonTargetDown
	case ev.Kind == TimerFired:
		return e.From == Open && e.To == HalfOpen && e.Reason == ReasonOpenTimeout
	case ev.Kind == ProbeNow:
		return e.From == Open && e.To == HalfOpen && e.Reason == ReasonProbeNow
	case e.From == Closed && e.To == Open && windowed(s) && ev.Kind != Ignored:
		// a window is checked after every outcome: a success that brings the
		// calls to MinCalls can trip it
		return e.Reason == ReasonFailureRate
	case e.From == Closed && e.To == Open && failed:
		return !windowed(s) && e.Reason == ReasonThreshold
	case e.From == HalfOpen && e.To == Open && failed:
		return (ev.Timeout && ev.Kind == Failed && e.Reason == ReasonProbeTimeout) ||
			(!(ev.Timeout && ev.Kind == Failed) && e.Reason == ReasonProbeFailed)
	case e.From == HalfOpen && e.To == Closed && ev.Kind == Succeeded && !failed:
		return e.Reason == ReasonProbeSucceeded
	}
	return false
}

// checkStep checks the rules every Step must obey, whatever the event, for a
// circuit reachable from New. It is shared by the property and fuzz tests.
func checkStep(before Circuit, ev Event, now time.Time, after Circuit, fx []Effect) error {
	s := *before.Settings
	if after.Settings != before.Settings || *after.Settings != s {
		return fmt.Errorf("settings changed: %+v -> %+v", s, *after.Settings)
	}
	if after.Gen.Incarnation != before.Gen.Incarnation {
		return fmt.Errorf("incarnation changed: %d -> %d", before.Gen.Incarnation, after.Gen.Incarnation)
	}
	manual := ev.Kind == ForceOpen || ev.Kind == ForceClose || ev.Kind == Reset
	// Every Transition advances Gen.Seq by exactly one, chains From/To and
	// gives a reason that fits its cause.
	seq, st, transitions := before.Gen.Seq, before.State, 0
	for i, e := range fx {
		switch e.Kind {
		case Moved:
			transitions++
			if e.Gen != (Gen{before.Gen.Incarnation, seq + 1}) || e.From != st || (e.To == e.From && !manual) {
				return fmt.Errorf("effect %d: bad transition %+v after gen seq %d in %s", i, e, seq, st)
			}
			if !reasonOK(before, ev, e) {
				return fmt.Errorf("effect %d: transition %+v does not fit %+v", i, e, ev)
			}
			seq, st = seq+1, e.To
		case StartTimer:
			if i == 0 || fx[i-1].Kind != Moved || fx[i-1].To != Open || e.Gen != fx[i-1].Gen || ev.Kind == ForceOpen {
				return fmt.Errorf("effect %d: StartTimer %+v must follow a transition to open that is not forced", i, e)
			}
			if after.RetryAt.Sub(after.OpenedAt) != e.After {
				return fmt.Errorf("StartTimer after %v, but RetryAt-OpenedAt is %v", e.After, after.RetryAt.Sub(after.OpenedAt))
			}
			if err := checkOpenTime(s, after.Reopens, e.After); err != nil {
				return err
			}
		case Forward, Reject:
			if ev.Kind != Admit || len(fx) != 1 || e.Gen != before.Gen {
				return fmt.Errorf("%+v: only Admit forwards or rejects, once, in the current gen", e)
			}
		default:
			return fmt.Errorf("effect %d: unknown kind %d", i, e.Kind)
		}
	}
	if transitions > 1 || after.Gen.Seq != seq || after.State != st {
		return fmt.Errorf("%d transitions from %s/%d do not explain %s/%d", transitions, before.State, before.Gen.Seq, after.State, after.Gen.Seq)
	}
	// Which events move the circuit, and which never do.
	var must, may bool
	switch ev.Kind {
	case ForceOpen, ForceClose, Reset:
		must, may = true, true
	case TargetDown:
		must = before.State != Open && before.Forced == NotForced
		may = must
	case TimerFired:
		may = ev.Gen == before.Gen && before.State == Open && before.Forced != ForcedOpen
		must = may
	case ProbeNow:
		may = before.State == Open && before.Forced != ForcedOpen
		must = may
	case Succeeded, Failed:
		// Only a current outcome trips, and only the outcome of a probe
		// leaves half-open.
		switch before.State {
		case Closed:
			may = ev.Gen == before.Gen && (ev.Kind == Failed || slow(s, ev) || windowed(s)) && before.Forced == NotForced
		case HalfOpen:
			may = ev.Gen == before.Gen && before.Probes > 0
		}
	}
	if (transitions == 1 && !may) || (transitions == 0 && must) {
		return fmt.Errorf("%+v made %d transitions from %s (probes=%d, forced=%d, gen %+v)",
			ev, transitions, before.State, before.Probes, before.Forced, before.Gen)
	}
	if ev.Kind == Admit && len(fx) != 1 {
		return fmt.Errorf("admit produced %d effects", len(fx))
	}
	if before.State == Open {
		for _, e := range fx {
			if e.Kind == Forward || (after.State == Open && e.Kind != Reject && !manual) {
				return fmt.Errorf("effect %+v while open", e)
			}
		}
	}
	if ev.Kind == Admit {
		forwarded := fx[0].Kind == Forward
		if forwarded == before.Rejecting() {
			return fmt.Errorf("admit with Rejecting()=%v produced %+v", before.Rejecting(), fx[0])
		}
		wantProbes := before.Probes
		if forwarded && before.State == HalfOpen {
			wantProbes++
		}
		if after.Probes != wantProbes || after.Passed != before.Passed {
			return fmt.Errorf("half-open admit left probes %d->%d, passed %d->%d", before.Probes, after.Probes, before.Passed, after.Passed)
		}
	}
	if transitions == 0 && (after.OpenedAt != before.OpenedAt || after.RetryAt != before.RetryAt ||
		after.Reopens != before.Reopens || after.Forced != before.Forced) {
		return fmt.Errorf("OpenedAt/RetryAt/Reopens/Forced changed without a transition")
	}
	if transitions == 1 {
		e := fx[0]
		switch {
		case ev.Kind == ForceOpen:
			if after.Forced != ForcedOpen || !after.OpenedAt.Equal(now) || !after.RetryAt.IsZero() || len(fx) != 1 ||
				after.Reopens != before.Reopens {
				return fmt.Errorf("forced open with forced=%d openedAt=%v retryAt=%v reopens=%d fx=%+v",
					after.Forced, after.OpenedAt, after.RetryAt, after.Reopens, fx)
			}
		case e.To == Open:
			wantReopens := 0
			if e.From == HalfOpen {
				wantReopens = before.Reopens + 1
			}
			if !after.OpenedAt.Equal(now) || len(fx) != 2 || after.Reopens != wantReopens || after.Forced != NotForced {
				return fmt.Errorf("tripped with openedAt=%v now=%v reopens %d->%d fx=%+v", after.OpenedAt, now, before.Reopens, after.Reopens, fx)
			}
			if e.Reason == ReasonThreshold && after.Failures < s.Threshold {
				return fmt.Errorf("tripped for threshold with %d failures", after.Failures)
			}
			if e.Reason == ReasonFailureRate {
				calls, fails := after.WindowRate(now)
				if calls == 0 || calls < s.Window.MinCalls || float64(fails) < s.Window.FailureRate*float64(calls)-1e-9 {
					return fmt.Errorf("tripped for failure rate with %d/%d failed", fails, calls)
				}
			}
		case e.To == HalfOpen:
			if after.Reopens != before.Reopens || after.Forced != NotForced {
				return fmt.Errorf("half-opened with reopens %d->%d forced=%d", before.Reopens, after.Reopens, after.Forced)
			}
		case e.To == Closed:
			wantForced := NotForced
			if ev.Kind == ForceClose {
				wantForced = ForcedClosed
			}
			if after.Reopens != 0 || after.Forced != wantForced || (ev.Kind == Reset && after.Failures != 0) {
				return fmt.Errorf("closed by %+v with reopens=%d forced=%d failures=%d", ev, after.Reopens, after.Forced, after.Failures)
			}
			if windowed(s) {
				if calls, _ := after.WindowRate(now); calls != 0 {
					return fmt.Errorf("closed with %d calls left in the window", calls)
				}
			}
		}
	}
	// A counted failure that leaves a closed, unforced circuit of the
	// consecutive policy at Threshold must trip it.
	if before.State == Closed && after.State == Closed && before.Forced == NotForced && !windowed(s) &&
		ev.Gen == before.Gen && (ev.Kind == Failed || slow(s, ev)) && after.Failures >= s.Threshold {
		return fmt.Errorf("%d failures at threshold %d did not trip", after.Failures, s.Threshold)
	}
	if d := after.Failures - before.Failures; d != 0 && d != 1 && after.Failures != 0 {
		return fmt.Errorf("failures jumped %d -> %d", before.Failures, after.Failures)
	}
	return checkCircuit(after, now)
}

// checkCircuit checks what holds of every circuit reachable from New.
func checkCircuit(c Circuit, now time.Time) error {
	s := *c.Settings
	probes := max(1, s.HalfOpenProbes)
	switch {
	case c.State != Closed && c.State != Open && c.State != HalfOpen:
		return fmt.Errorf("unknown state %d", c.State)
	case (c.Probes != 0 || c.Passed != 0) && c.State != HalfOpen:
		return fmt.Errorf("probes=%d passed=%d in %s", c.Probes, c.Passed, c.State)
	case c.Probes < 0 || c.Passed < 0 || c.Probes+c.Passed > probes || c.Passed >= probes:
		return fmt.Errorf("probes=%d passed=%d of %d", c.Probes, c.Passed, probes)
	case c.State == HalfOpen && c.Probes == 0 && c.Rejecting():
		return fmt.Errorf("half-open with no probe in flight rejects: stuck")
	case c.State == Closed && (!c.OpenedAt.IsZero() || !c.RetryAt.IsZero() || c.Reopens != 0):
		return fmt.Errorf("closed with openedAt=%v retryAt=%v reopens=%d", c.OpenedAt, c.RetryAt, c.Reopens)
	case c.State != Closed && c.OpenedAt.IsZero():
		return fmt.Errorf("%s without openedAt", c.State)
	case c.Forced == ForcedOpen && (c.State != Open || !c.RetryAt.IsZero()):
		return fmt.Errorf("forced open in %s with retryAt=%v", c.State, c.RetryAt)
	case c.Forced == ForcedClosed && c.State != Closed:
		return fmt.Errorf("forced closed in %s", c.State)
	case c.Forced > ForcedClosed || c.Reopens < 0 || c.Failures < 0:
		return fmt.Errorf("forced=%d reopens=%d failures=%d", c.Forced, c.Reopens, c.Failures)
	case c.State != Closed && c.Forced == NotForced:
		if err := checkOpenTime(s, c.Reopens, c.RetryAt.Sub(c.OpenedAt)); err != nil {
			return fmt.Errorf("%s: %w", c.State, err)
		}
	}
	if windowed(s) {
		calls, fails := c.WindowRate(now)
		limit := s.Window.Size
		if s.Window.Period > 0 {
			limit = math.MaxInt
		}
		if fails < 0 || fails > calls || calls > limit {
			return fmt.Errorf("window holds %d/%d failed (size %d)", fails, calls, s.Window.Size)
		}
	}
	return nil
}
