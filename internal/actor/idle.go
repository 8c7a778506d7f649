package actor

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire/state"
)

// armIdle schedules the next idle check after d (IdleTimeout > 0 only).
func (b *breaker) armIdle(ctx actor.Context, d time.Duration) {
	if b.rules.IdleTimeout <= 0 {
		return
	}
	b.idleSeq++
	b.cfg.Shared.Idle.arm(d, &b.cfg.Mailbox, &idleCheck{incarnation: b.circuit.Gen.Incarnation, seq: uint64(b.idleSeq)})
}

// checkIdle stops a closed, unforced breaker with nothing in flight that has
// had no call for IdleTimeout; otherwise it checks again when that could
// first be true. A target still running a call answered already (one that
// ignores its deadline) holds its MaxInFlight slot, and keeps the key awake:
// a key passivated could be forgotten (WithMaxKeys), and the key made again
// would admit MaxInFlight calls more next to it.
func (b *breaker) checkIdle(ctx actor.Context, m *idleCheck) {
	if m.incarnation != b.circuit.Gen.Incarnation || m.seq != uint64(b.idleSeq) {
		return
	}
	now := time.Now()
	if l := b.cfg.Cell.hot.Load(); l != nil {
		b.lastActive = max(b.lastActive, l.lastEnded()) // the calls its workers ended (Call.Finish)
	}
	idle := monoOf(now).sub(b.lastActive)
	c := &b.circuit
	// A call queued behind this turn is activity too: never passivate with
	// one waiting (its caller would have to wake the key again).
	if c.State == state.Closed && c.Forced == state.NotForced && len(b.inflight) == 0 && b.cfg.Cell.admittedInFlight() == 0 && b.cfg.Cell.inflight.Load() == 0 &&
		idle >= b.rules.IdleTimeout && b.cfg.Mailbox.UserMessageCount() == 0 {
		// Callers admit calls themselves while the circuit publishes its
		// admission: take it back, then look again, so that none slips in
		// unseen (admissionOf counts a call before it reads the admission).
		b.cfg.Cell.admitting(nil, nil)
		if b.cfg.Cell.admittedInFlight() != 0 || b.cfg.Cell.inflight.Load() != 0 || b.cfg.Mailbox.UserMessageCount() != 0 {
			b.publishAdmits()
			b.armIdle(ctx, b.rules.IdleTimeout)
			return
		}
		b.cfg.Cell.flags.Or(flagPassivated)
		b.endDrain()
		s := b.cfg.Cell.stats.Load()
		if s != nil && s.win != nil {
			b.cfg.Cell.endHot(s, s.win, now)
		}
		b.cfg.Cell.setStats(nil) // a key wakes with zero counts
		s.release()
		b.cfg.Cell.resetCallerCounts(nil) // (closed, nothing in flight: nobody counts meanwhile)
		b.cfg.Shared.Logger.Debug("breaker passivated", zap.String("key", b.cfg.Key), zap.Duration("idle", idle))
		ctx.Stop(copyOf(ctx.Self()))
		return
	}
	wait := b.rules.IdleTimeout - idle
	if wait <= 0 {
		wait = b.rules.IdleTimeout
	}
	b.armIdle(ctx, wait)
}
