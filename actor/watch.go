package actor

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/state"
)

// watch asks protoactor to tell the breaker when its actor target
// terminates (locally, or its node is gone). A target already dead answers
// at once, and the breaker opens.
func (b *breaker) watch(ctx actor.Context) {
	if !b.cfg.WatchTarget || b.cfg.Target.PID == nil {
		return
	}
	b.watching = true
	ctx.Watch(b.cfg.Target.PID)
}

// targetDown opens the circuit at once and fails the calls still waiting on
// the dead target with ErrTargetDown. A call whose reply came before the
// target stopped keeps its answer: it is already on its way back.
func (b *breaker) targetDown(ctx actor.Context) {
	b.watching = false
	now := time.Now()
	b.lastActive = now
	b.step(ctx, state.Event{Kind: state.TargetDown, Rand: rand.Float64()}, now)
	for _, c := range append([]*Call(nil), b.inflight...) {
		if c.ask == nil || !c.ask.Abandon() {
			continue
		}
		c.ask = nil
		b.inflight.remove(c)
		c.ctx.cancel(context.Canceled)
		claimed := c.claim()
		kind := state.Failed
		if !claimed && c.wasWithdrawn() {
			kind = state.Ignored
		}
		b.step(ctx, state.Event{Kind: kind, Gen: c.gen, Duration: now.Sub(c.admitted), Rand: rand.Float64()}, now)
		if claimed {
			c.deliver(Result{Err: errs.ErrTargetDown})
		}
	}
}
