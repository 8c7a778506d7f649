package actor

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/timers"
)

// expire answers every call whose deadline passed with ErrTimeout, a
// failure (or, if its target never started, neither way: deadlineKind).
func (b *breaker) expire(ctx actor.Context, t *deadlineTick) {
	if t.incarnation != b.circuit.Gen.Incarnation || t.seq != uint64(b.tickSeq) {
		return
	}
	b.ticking, b.tickAt = false, 0
	now := time.Now()
	expired := false
	for c := b.inflight.earliest(); c != nil && !now.Before(c.Deadline); c = b.inflight.earliest() {
		expired = true
		b.inflight.remove(c)
		c.abandon(context.DeadlineExceeded)
		b.end(ctx, c, b.deadlineKind(c), byDeadline, Result{Err: errs.ErrTimeout}, now)
	}
	if expired {
		b.lastActive = monoOf(now)
	}
	b.armTick(ctx, now)
}

// armTick keeps one timer armed at the earliest deadline in flight.
func (b *breaker) armTick(ctx actor.Context, now time.Time) {
	c := b.inflight.earliest()
	if c == nil || (b.ticking && monoOf(c.Deadline) >= b.tickAt) {
		return
	}
	b.cancelTick()
	b.tickSeq++
	b.tickAt, b.ticking = monoOf(c.Deadline), true
	if b.tick == nil {
		b.tick = timers.NewTicket(&b.cfg.Mailbox)
	}
	// Through the incarnation's ticket (a stopped breaker's ticks reach
	// nobody, keeping nothing of its key), moving the one armed before.
	b.cfg.Shared.Idle.Rearm(c.Deadline.Sub(now), b.tick,
		&deadlineTick{incarnation: b.circuit.Gen.Incarnation, seq: uint64(b.tickSeq)})
}

// cancelTick forgets the tick armed, if any: its tag is stale when it comes.
func (b *breaker) cancelTick() {
	if b.ticking {
		b.ticking = false
		b.tickSeq++
	}
}

// endTicks lets go of the key in the ticks armed, as the breaker stops.
func (b *breaker) endTicks() {
	b.cancelTick()
	if b.tick != nil {
		b.tick.Void()
		b.tick = nil
	}
}
