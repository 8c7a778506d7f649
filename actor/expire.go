package actor

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/state"
)

// expire answers every call whose deadline has passed with ErrTimeout and
// counts it as a failure.
func (b *breaker) expire(ctx actor.Context, t *deadlineTick) {
	if t.incarnation != b.circuit.Gen.Incarnation || t.seq != uint64(b.tickSeq) {
		return
	}
	b.tickCancel, b.tickAt = nil, 0
	now := time.Now()
	expired := false
	for c := b.inflight.earliest(); c != nil && !now.Before(c.Deadline); c = b.inflight.earliest() {
		expired = true
		b.inflight.remove(c)
		c.abandon()
		c.ctx.cancel(context.DeadlineExceeded)
		b.end(ctx, c, state.Failed, true, false, Result{Err: errs.ErrTimeout}, now)
	}
	if expired {
		b.lastActive = monoOf(now)
	}
	b.armTick(ctx, now)
}

// armTick keeps one timer armed at the earliest deadline in flight.
func (b *breaker) armTick(ctx actor.Context, now time.Time) {
	c := b.inflight.earliest()
	if c == nil || (b.tickCancel != nil && monoOf(c.Deadline) >= b.tickAt) {
		return
	}
	b.cancelTick()
	b.tickSeq++
	b.tickAt = monoOf(c.Deadline)
	b.tickCancel = b.after(c.Deadline.Sub(now), &deadlineTick{incarnation: b.circuit.Gen.Incarnation, seq: uint64(b.tickSeq)})
}

func (b *breaker) cancelTick() {
	if b.tickCancel != nil {
		b.tickCancel()
		b.tickCancel = nil
	}
}
