package actor

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/scheduler"
	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/task"
)

// breaker is one incarnation of a key's breaker actor.
type breaker struct {
	cfg     *Config
	log     *zap.Logger
	circuit state.Circuit
	fx      []state.Effect
	timers  *scheduler.TimerScheduler

	inflight deadlines
	// the one timer armed at the earliest deadline, and its tag
	tickCancel scheduler.CancelFunc
	tickAt     time.Time
	tickSeq    uint64

	recoveryCancel scheduler.CancelFunc
	rejecting      bool      // last value published in Cell.rejecting
	episode        time.Time // when the circuit last left closed
}

// Receive handles one message; it never blocks.
func (b *breaker) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *Call:
		b.admit(ctx, m)
	case *task.Outcome:
		b.outcome(ctx, m)
	case *Withdraw:
		b.withdraw(ctx, m.Call)
	case *deadlineTick:
		b.expire(ctx, m)
	case *recoveryTimer:
		b.step(ctx, state.Event{Kind: state.TimerFired, Gen: m.Gen}, time.Now(), false)
	case *SnapshotRequest:
		m.Reply <- b.snapshot()
	case *Crash:
		panic("tripwire: injected crash of breaker " + b.cfg.Key)
	case *actor.Started:
		b.start(ctx)
	case *actor.Restarting:
		b.stop(errs.ErrBreakerRestarted)
	case *actor.Stopping:
		b.stop(b.cfg.Cell.StopError())
	}
}

func (b *breaker) start(ctx actor.Context) {
	b.circuit = state.New(b.cfg.Circuit, b.cfg.Cell.nextIncarnation())
	b.timers = scheduler.NewTimerScheduler(ctx)
	b.rejecting = false
	b.cfg.Cell.rejecting.Store(false)
	if prev := b.cfg.Cell.State(); prev != state.Closed {
		// The crashed incarnation was not closed: this is a state change too.
		b.cfg.Cell.publish(state.Closed)
		t := Transition{Key: b.cfg.Key, From: prev, To: state.Closed, At: time.Now(), Reason: ReasonRestarted}
		b.logTransition(t, b.circuit.Gen)
		if l := b.cfg.Listener; l != nil {
			l.Transitioned(t)
		}
	}
}

// stop answers every call in flight with err and cancels the timers; it runs
// on the old instance before a restart and before a stop.
func (b *breaker) stop(err error) {
	for _, c := range b.inflight {
		c.index = -1
		b.release(c)
		c.ctx.cancel(context.Canceled)
		c.Settle(Result{Err: err})
	}
	b.inflight = nil
	b.cancelTick()
	if b.recoveryCancel != nil {
		b.recoveryCancel()
	}
}

func (b *breaker) admit(ctx actor.Context, c *Call) {
	now := time.Now()
	if !now.Before(c.Deadline) {
		// Its deadline passed while it waited in the mailbox: the target was
		// never asked, so it counts neither way.
		c.Settle(Result{Err: errs.ErrTimeout})
		return
	}
	b.fx = b.fx[:0]
	b.circuit, b.fx = state.Step(b.circuit, state.Event{Kind: state.Admit}, now, b.fx)
	for _, e := range b.fx {
		switch e.Kind {
		case state.Forward:
			b.forward(ctx, c, e.Gen, now)
		case state.Reject:
			c.Settle(Result{Err: errs.ErrOpen})
		}
	}
	b.publishRejecting()
}

// publishRejecting lets callers fail fast, without a message, while the
// breaker would reject them anyway.
func (b *breaker) publishRejecting() {
	r := b.circuit.State == state.Open || (b.circuit.State == state.HalfOpen && b.circuit.Probing)
	if r != b.rejecting {
		b.rejecting = r
		b.cfg.Cell.rejecting.Store(r)
	}
}

func (b *breaker) forward(ctx actor.Context, c *Call, gen state.Gen, now time.Time) {
	c.gen = gen
	b.inflight.add(c)
	b.armTick(ctx, now)
	if fn := b.cfg.Target.Func; fn != nil {
		c.job = task.Job{
			Ctx: &c.ctx, Deadline: c.Deadline, Fn: fn, Msg: c.Msg,
			Classify: b.cfg.IsFailure, ReplyTo: ctx.Self(), Token: c,
		}
		b.cfg.Pool.Submit(&c.job)
		return
	}
	c.ask = task.NewAsk(ctx.ActorSystem(), b.cfg.Target.PID, c.Msg, ctx.Self(), c, b.cfg.IsFailure)
}

func (b *breaker) outcome(ctx actor.Context, o *task.Outcome) {
	c, ok := o.Token.(*Call)
	if !ok || !b.inflight.remove(c) {
		return // late: timed out, withdrawn, or admitted by an earlier incarnation
	}
	kind := state.Succeeded
	if o.Failed {
		kind = state.Failed
	}
	claimed := c.claim()
	if !claimed && c.wasWithdrawn() {
		kind = state.Ignored
	}
	b.step(ctx, state.Event{Kind: kind, Gen: c.gen}, time.Now(), false)
	if claimed {
		c.deliver(Result{Value: o.Value, Err: o.Err})
	}
}

func (b *breaker) withdraw(ctx actor.Context, c *Call) {
	if !b.inflight.remove(c) {
		return
	}
	b.release(c)
	c.ctx.cancel(context.Canceled)
	b.step(ctx, state.Event{Kind: state.Ignored, Gen: c.gen}, time.Now(), false)
}

// release frees what the data plane holds for c; a late reply is then ignored.
func (b *breaker) release(c *Call) {
	if c.ask != nil {
		c.ask.Abandon()
		c.ask = nil
	}
}

// step feeds ev to the circuit and carries out the effects. timedOut says
// the event is a call's deadline passing.
func (b *breaker) step(ctx actor.Context, ev state.Event, now time.Time, timedOut bool) {
	b.fx = b.fx[:0]
	b.circuit, b.fx = state.Step(b.circuit, ev, now, b.fx)
	for _, e := range b.fx {
		switch e.Kind {
		case state.Transition:
			b.cfg.Cell.publish(e.To)
			b.announce(e, now, timedOut)
		case state.StartTimer:
			if b.recoveryCancel != nil {
				b.recoveryCancel()
			}
			b.recoveryCancel = b.timers.SendOnce(e.After, ctx.Self(), &recoveryTimer{Gen: e.Gen})
		}
	}
	b.publishRejecting()
}

func (b *breaker) snapshot() Snapshot {
	return Snapshot{
		State:    b.circuit.State,
		Failures: b.circuit.Failures,
		OpenedAt: b.circuit.OpenedAt,
		RetryAt:  b.circuit.RetryAt,
		InFlight: len(b.inflight),
		Restarts: b.cfg.Cell.Restarts(),
	}
}
