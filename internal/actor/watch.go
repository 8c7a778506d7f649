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
// terminates, or its node is gone (at once if it is already dead).
func (b *breaker) watch(ctx actor.Context) {
	if !b.rules.WatchTarget || b.cfg.Target.PID == nil {
		return
	}
	b.watching = true
	b.tellTarget(ctx, &actor.Watch{Watcher: copyOf(ctx.Self())})
	b.publishAdmits()
}

// tellTarget sends the target a system message about this breaker, named
// by a PID of its own (protoactor caches a process in the PID it sends
// through, which would keep a stopped breaker alive). A target that is not
// there is sent nothing: dead letters would run the program's EventStream
// handlers on this turn; the breaker answers a Watch itself, as they would.
func (b *breaker) tellTarget(ctx actor.Context, msg any) {
	t := b.cfg.Target.PID
	reg := ctx.ActorSystem().ProcessRegistry
	proc, ok := reg.Get(t)
	if ok {
		proc.SendSystemMessage(t, msg)
		return
	}
	if w, watch := msg.(*actor.Watch); watch {
		self, _ := reg.Get(w.Watcher)
		self.SendSystemMessage(w.Watcher, &actor.Terminated{Who: t, Why: actor.TerminatedReason_NotFound})
	}
}

// copyOf is a PID naming the same actor as pid, with a cache of its own.
func copyOf(pid *actor.PID) *actor.PID { return &actor.PID{Address: pid.Address, Id: pid.Id} }

// unwatch ends the watch of the target when the breaker stops for good (the
// key's next breaker watches it under a name of its own), so the target's
// watchers do not grow by a dead breaker per passivation or respawn. A
// target on another node is unwatched only while its key lives on: when the
// key goes away its node may be why, protoactor would redial it for 10 s,
// and the remote node drops the watch itself when the connection ends.
func (b *breaker) unwatch(ctx actor.Context) {
	if b.watching && (!b.cfg.Cell.retired() || b.targetIsLocal(ctx)) {
		b.watching = false
		b.tellTarget(ctx, &actor.Unwatch{Watcher: copyOf(ctx.Self())})
	}
}

// targetDown opens the circuit at once and fails with ErrTargetDown the
// calls still waiting on the dead target (one whose reply came keeps it).
func (b *breaker) targetDown(ctx actor.Context) {
	b.watching = false
	now := time.Now()
	b.lastActive = monoOf(now)
	b.cfg.Cell.failed(errs.ErrTargetDown)
	b.step(ctx, state.Event{Kind: state.TargetDown, Rand: rand.Float64()}, now)
	for _, c := range append([]*Call(nil), b.inflight...) {
		if c.ask == nil || !c.ask.Abandon() {
			continue
		}
		c.ask = nil
		b.inflight.remove(c)
		c.ctx.Cancel(context.Canceled)
		b.end(ctx, c, state.Failed, byTargetDown, Result{Err: errs.ErrTargetDown}, now)
	}
	b.targetDownAdmitted(ctx, now)
}

// targetIsLocal reports whether the breaker has an actor target, and it
// lives in this actor system.
func (b *breaker) targetIsLocal(ctx actor.Context) bool {
	t := b.cfg.Target.PID
	return t != nil && (t.Address == "nonhost" || t.Address == ctx.ActorSystem().ProcessRegistry.Address)
}
