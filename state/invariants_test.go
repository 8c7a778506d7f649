package state

import (
	"fmt"
	"time"
)

// checkStep checks the rules every Step must obey, whatever the event, for a
// circuit reachable from New. It is shared by the property and fuzz tests.
func checkStep(before Circuit, ev Event, now time.Time, after Circuit, fx []Effect) error {
	s := before.Settings
	if after.Settings != s {
		return fmt.Errorf("settings changed: %+v -> %+v", s, after.Settings)
	}
	if after.Gen.Incarnation != before.Gen.Incarnation {
		return fmt.Errorf("incarnation changed: %d -> %d", before.Gen.Incarnation, after.Gen.Incarnation)
	}
	// Every Transition advances Gen.Seq by exactly one and chains From/To.
	seq, st, transitions := before.Gen.Seq, before.State, 0
	for i, e := range fx {
		switch e.Kind {
		case Transition:
			transitions++
			if e.Gen != (Gen{before.Gen.Incarnation, seq + 1}) || e.From != st || e.To == e.From {
				return fmt.Errorf("effect %d: bad transition %+v after gen seq %d in %s", i, e, seq, st)
			}
			seq, st = seq+1, e.To
		case StartTimer:
			if i == 0 || fx[i-1].Kind != Transition || fx[i-1].To != Open || e.Gen != fx[i-1].Gen || e.After != s.OpenTimeout {
				return fmt.Errorf("effect %d: StartTimer %+v must follow the transition to open", i, e)
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
	if transitions == 1 {
		// Only a current failure trips, only the live timer half-opens and
		// only the outcome of the probe leaves half-open.
		ok := ev.Gen == before.Gen
		switch before.State {
		case Closed:
			ok = ok && ev.Kind == Failed
		case Open:
			ok = ok && ev.Kind == TimerFired
		case HalfOpen:
			ok = ok && before.Probing && (ev.Kind == Succeeded || ev.Kind == Failed)
		}
		if !ok {
			return fmt.Errorf("%+v moved %s (probing=%v, gen %+v) to %s", ev, before.State, before.Probing, before.Gen, after.State)
		}
	}
	if ev.Kind == Admit && len(fx) != 1 {
		return fmt.Errorf("admit produced %d effects", len(fx))
	}
	if before.State == Open {
		for _, e := range fx {
			if e.Kind == Forward || (after.State == Open && e.Kind != Reject) {
				return fmt.Errorf("effect %+v while open", e)
			}
		}
	}
	if ev.Kind == Admit && before.State == HalfOpen {
		forwarded := fx[0].Kind == Forward
		if forwarded == before.Probing || !after.Probing {
			return fmt.Errorf("half-open admit with probing=%v produced %+v, probing now %v", before.Probing, fx[0], after.Probing)
		}
	}
	if transitions == 0 && (after.OpenedAt != before.OpenedAt || after.RetryAt != before.RetryAt) {
		return fmt.Errorf("OpenedAt/RetryAt changed without a transition")
	}
	if transitions == 1 && after.State == Open {
		if after.Failures < s.Threshold || after.OpenedAt != now || len(fx) != 2 {
			return fmt.Errorf("tripped with failures=%d openedAt=%v now=%v fx=%+v", after.Failures, after.OpenedAt, now, fx)
		}
	}
	if d := after.Failures - before.Failures; d != 0 && d != 1 && after.Failures != 0 {
		return fmt.Errorf("failures jumped %d -> %d", before.Failures, after.Failures)
	}
	return checkCircuit(after)
}

// checkCircuit checks what holds of every circuit reachable from New.
func checkCircuit(c Circuit) error {
	s := c.Settings
	switch {
	case c.Probing && c.State != HalfOpen:
		return fmt.Errorf("probing in %s", c.State)
	case c.State == Closed && (c.Failures >= s.Threshold || !c.OpenedAt.IsZero() || !c.RetryAt.IsZero()):
		return fmt.Errorf("closed with failures=%d openedAt=%v retryAt=%v", c.Failures, c.OpenedAt, c.RetryAt)
	case c.State != Closed && (c.Failures < s.Threshold || c.OpenedAt.IsZero() || c.RetryAt != c.OpenedAt.Add(s.OpenTimeout)):
		return fmt.Errorf("%s with failures=%d openedAt=%v retryAt=%v", c.State, c.Failures, c.OpenedAt, c.RetryAt)
	case c.State != Closed && c.State != Open && c.State != HalfOpen:
		return fmt.Errorf("unknown state %d", c.State)
	}
	return nil
}
