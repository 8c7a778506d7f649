package actor

import (
	"context"
	"errors"
	"time"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/timers"
	"github.com/tripwire-go/tripwire/state"
)

// Whether a call's latency counts in its key's statistics (count): not
// for a call its target did not run, nor for one its caller withdrew.
const (
	unmeasured = false
	measured   = true
)

// count records one call that ended as t in the key's statistics, and its
// latency d if timed.
func (b *breaker) count(t state.Tally, now time.Time, d time.Duration, timed bool) {
	cell := &b.cfg.Cell
	s, w := cell.window(now)
	n := s.record(w, t, now, d, timed, cell)
	// (An actor target's key with a classifier of its own classifies its
	// replies on a worker, which then posts them: it takes no lane.)
	if t == state.TallySuccess && n >= hotCalls && (b.cfg.Target.Func != nil || b.rules.Classify == nil) && cell.hot.Load() == nil {
		cell.hot.Store(newHotLane(w.Origin())) // hot: its workers count its successes from now on
	}
	if !b.draining {
		b.armDrain()
	}
}

// tallyEnd is how the statistics count the end of a call the target ran,
// as the circuit counts it, and whether its latency counts; it records the
// call's failure (its error, or ErrSlowCall), which may open the circuit.
func (b *breaker) tallyEnd(kind state.EventKind, canceled, timeout bool, err error, d time.Duration) (t state.Tally, timed bool) {
	t = state.TallySuccess
	var cause error
	switch {
	case canceled:
		return state.TallyCanceled, unmeasured
	case kind == state.Ignored && timeout:
		return state.TallyCanceled, unmeasured // its target was never asked (see deadlineKind)
	case kind == state.Ignored:
		t = state.TallyIgnored
	case kind == state.Failed:
		t, cause = state.TallyFailure, err
		if timeout || errors.Is(err, errs.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
			t = state.TallyTimeout
		}
	case b.rules.Circuit.SlowCall > 0 && d > b.rules.Circuit.SlowCall:
		t, cause = state.TallyFailure, errs.ErrSlowCall
	}
	if cause != nil {
		b.cfg.Cell.failed(cause)
	}
	return t, measured
}

// deadlineKind is how a call ends at its deadline: a failure (a timeout),
// or ignored if its function target never started (the process gave its
// worker no core in time: task.Job.Unstarted), which counts in Canceled.
func (b *breaker) deadlineKind(c *Call) state.EventKind {
	if b.cfg.Target.Func != nil && c.job.Unstarted() {
		return state.Ignored
	}
	return state.Failed
}

// armDrain checks in a window's time whether the key has gone quiet, to
// give its window back (a key called once then left keeps its totals).
func (b *breaker) armDrain() {
	if idle := b.rules.IdleTimeout; idle > 0 && idle <= state.StatsWindow {
		return // it passivates before, which frees the statistics
	}
	_, w := b.cfg.Cell.window(time.Now())
	b.draining = true
	b.drainSeq++
	w.ticket = timers.NewTicket(&b.cfg.Mailbox)
	b.cfg.Shared.Idle.ArmTicket(state.StatsWindow, w.ticket,
		&idleCheck{incarnation: b.circuit.Gen.Incarnation, seq: uint64(b.drainSeq), drain: true})
}

// endDrain lets go of the key in the drain check armed, if any: the
// breaker stops (the next one of the key arms its own).
func (b *breaker) endDrain() {
	if s := b.cfg.Cell.stats.Load(); s != nil && s.win != nil && s.win.ticket != nil {
		s.win.ticket.Void()
		s.win.ticket = nil
	}
}

func (b *breaker) checkDrain(m *idleCheck) {
	if m.incarnation != b.circuit.Gen.Incarnation || m.seq != uint64(b.drainSeq) {
		return
	}
	b.draining = false
	s := b.cfg.Cell.stats.Load()
	if s == nil {
		return
	}
	if !s.quiet(time.Now(), &b.cfg.Cell) {
		b.armDrain()
		return
	}
	// Only a closed key gives its window back (an open one keeps its
	// OpenError's cause); while quiet, none wakes it for that: a call, a
	// Snapshot or a control that finds it closed arms the check again.
	if c := &b.circuit; c.State == state.Closed && c.Forced == state.NotForced {
		s.drop(&b.cfg.Cell)
		if len(b.inflight) == 0 {
			b.inflight = nil // its memory too
		}
	}
}

func (b *breaker) snapshot() Snapshot {
	now := time.Now()
	c := &b.circuit
	calls, fails := c.WindowRate(now)
	snap := Snapshot{
		Key:      b.cfg.Key,
		State:    c.State,
		Forced:   c.Forced,
		Reason:   b.reason,
		Since:    time.Unix(0, b.since),
		Failures: c.Failures,
		Reopens:  c.Reopens,
		OpenedAt: c.OpenedAt,
		RetryAt:  c.RetryAt,
		InFlight: len(b.inflight) + b.cfg.Cell.admittedInFlight(),
		Restarts: b.cfg.Cell.Restarts(),
		Rules:    b.rules,

		WindowCalls:    calls,
		WindowFailures: fails,
	}
	if calls > 0 {
		snap.FailureRate = float64(fails) / float64(calls)
	}
	s := b.cfg.Cell.stats.Load()
	if s == nil && b.cfg.Cell.callerSeen() {
		s = b.cfg.Cell.keyStats() // the callers counted what the breaker did not see
	}
	if s != nil {
		snap.Stats = s.report(now, &b.cfg.Cell)
		if s = b.cfg.Cell.stats.Load(); s.win != nil && !b.draining { // (report may have made the window)
			b.armDrain()
		}
	}
	return snap
}
