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
	b.cfg.Shared.Idle.Arm(d, &b.cfg.Mailbox, &idleCheck{incarnation: b.circuit.Gen.Incarnation, seq: uint64(b.idleSeq)})
}

// checkIdle stops a closed, unforced breaker with nothing in flight that has
// had no call for IdleTimeout, or checks again when that could first be
// true. A target still running a call answered already holds its
// MaxInFlight slot and keeps the key awake (a key forgotten and made again
// would admit MaxInFlight calls more next to it).
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
	if c.State != state.Closed || c.Forced != state.NotForced || len(b.inflight) != 0 || idle < b.rules.IdleTimeout || b.busy() {
		wait := b.rules.IdleTimeout - idle
		if wait <= 0 {
			wait = b.rules.IdleTimeout
		}
		b.armIdle(ctx, wait)
		return
	}
	// Callers admit calls themselves while the circuit publishes its
	// admission: take it back, then look again, so that none slips in
	// unseen (admissionOf counts a call before it reads the admission).
	b.cfg.Cell.admitting(nil, nil)
	if b.busy() {
		b.publishAdmits()
		b.armIdle(ctx, b.rules.IdleTimeout)
		return
	}
	b.passivate(ctx, now, idle)
}

// busy reports whether the key has calls its callers admitted in flight,
// calls holding MaxInFlight slots, or calls queued behind this turn.
func (b *breaker) busy() bool {
	cell := &b.cfg.Cell
	return cell.admittedInFlight() != 0 || cell.inflight.Load() != 0 || b.cfg.Mailbox.UserMessageCount() != 0
}

// passivate stops the breaker of a key idle for idle (it wakes with zero counts).
func (b *breaker) passivate(ctx actor.Context, now time.Time, idle time.Duration) {
	cell := &b.cfg.Cell
	cell.flags.Or(flagPassivated)
	b.endDrain()
	s := cell.stats.Load()
	if s != nil && s.win != nil {
		cell.endHot(s, s.win, now)
	}
	cell.setStats(nil)
	s.release()
	cell.resetCallerCounts(nil) // (closed, nothing in flight: nobody counts meanwhile)
	b.cfg.Shared.Logger.Debug("breaker passivated", zap.String("key", b.cfg.Key), zap.Duration("idle", idle))
	ctx.Stop(copyOf(ctx.Self()))
}
