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
	if !b.rules.WatchTarget || b.cfg.Target.PID == nil {
		return
	}
	b.watching = true
	b.tellTarget(ctx, &actor.Watch{Watcher: copyOf(ctx.Self())})
	b.publishAdmits()
}

// tellTarget sends the target a system message about this breaker. It names
// the breaker by a PID of its own: protoactor caches the process in a PID it
// sends through, and the breaker's own PID is also in the supervisor's set
// of children, whose stale entries would then keep a stopped breaker alive.
//
// A target that is not there is sent nothing: protoactor's dead letters
// would answer a Watch, but first publish a DeadLetterEvent, whose
// EventStream handlers (the program's) would run on this turn, at every
// start of the key's breaker. The breaker tells itself instead, as the dead
// letters would.
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

// unwatch ends the watch of the target when the breaker stops for good: the
// next breaker of the key has a name of its own and watches it again, so
// without this the target's set of watchers would grow by one dead breaker
// per passivation, respawn or re-registration. After a target_down there is
// no watch left to end.
//
// A target on another node is unwatched only while its key lives on
// (passivation, respawn): when the key is unregistered or the registry shuts
// down, its node may be the reason, and protoactor redials a dead node for
// 10 s to deliver an unwatch; the remote node drops the watch itself when
// this node's connection to it ends.
func (b *breaker) unwatch(ctx actor.Context) {
	if b.watching && (!b.cfg.Cell.retired() || b.targetIsLocal(ctx)) {
		b.watching = false
		b.tellTarget(ctx, &actor.Unwatch{Watcher: copyOf(ctx.Self())})
	}
}

// targetDown opens the circuit at once and fails the calls still waiting on
// the dead target with ErrTargetDown. A call whose reply came before the
// target stopped keeps its answer: it is already on its way back.
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
