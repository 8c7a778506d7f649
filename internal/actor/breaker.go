package actor

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/internal/timers"
	"github.com/tripwire-go/tripwire/state"
)

// breaker is one incarnation of a key's breaker actor.
type breaker struct {
	spawner *Spawner // finds cfg when the breaker starts
	cfg     *Config
	actx    actor.Context // its protoactor context, for turns taken directly
	rules   *Rules
	circuit state.Circuit

	inflight deadlines
	tick     *timers.Ticket[Mailbox] // the tick at the earliest deadline (tickAt), tagged tickSeq
	tickAt   mono
	tickSeq  uint32
	idleSeq  uint32

	recoveryCancel func() bool
	rejectingGen   state.Gen // the circuit's generation when the rejection was published
	watching       bool      // the actor target is watched
	draining       bool      // a check that drops a quiet key's window is armed
	ticking        bool      // a deadline tick is armed (at tickAt)
	stopped        bool      // stop ran: callers post their calls
	reason         state.Reason
	drainSeq       uint16
	lastActive     mono         // last admission or outcome, for IdleTimeout
	episode        mono         // when the circuit last left closed
	sender         *task.Sender // how asks reach an actor target without blocking the turn, or a caller
	since          int64        // when the circuit entered its state (Unix ns)
}

// Receive handles one message; it never blocks. The call path's messages
// usually come through receiveDirect instead.
func (b *breaker) Receive(ctx actor.Context) {
	if b.cfg == nil && !b.resolve(ctx) {
		if _, stopped := ctx.Message().(*actor.Stopped); stopped {
			b.spawner.stopped(ctx.Self().Id)
		}
		return
	}
	if !b.receiveDirect(ctx.Message()) && !b.receiveRequest(ctx, ctx.Message()) {
		b.receiveSystem(ctx)
	}
}

// receiveRequest takes the turns of the registry's requests and the
// breaker's own timers; it reports false for any other message.
func (b *breaker) receiveRequest(ctx actor.Context, msg any) bool {
	switch m := msg.(type) {
	case *withdrawal:
		b.withdraw(ctx, m.Call)
	case *deadlineTick:
		b.expire(ctx, m)
	case *recoveryTimer:
		b.step(ctx, state.Event{Kind: state.TimerFired, Gen: m.Gen}, time.Now())
	case *idleCheck:
		if m.drain {
			b.checkDrain(m)
		} else {
			b.checkIdle(ctx, m)
		}
	case *SnapshotRequest:
		m.Reply <- Report{Snapshot: b.snapshot()}
	case *Control:
		if m.Event == state.ForceOpen {
			b.cfg.Cell.failed(nil) // forced: no failure opened it
		}
		b.step(ctx, state.Event{Kind: m.Event, Rand: rand.Float64()}, time.Now())
		m.Reply <- Report{Snapshot: b.snapshot()}
	case *Reconfigure:
		b.reconfigure()
		m.Reply <- Report{Snapshot: b.snapshot()}
	case *Crash:
		panic("tripwire: injected crash of breaker " + b.cfg.Key)
	default:
		return false
	}
	return true
}

// reconfigure takes the key's new rules, keeping the state, and announces them.
func (b *breaker) reconfigure() {
	b.rules = b.cfg.Rules()
	b.circuit.Reconfigure(&b.rules.Circuit)
	st := b.circuit.State
	b.publishRejecting() // before the announcement, as in step
	b.announce(state.Effect{Kind: state.Moved, Gen: b.circuit.Gen, From: st, To: st, Reason: state.ReasonUpdated}, time.Now())
}

// receiveSystem takes the turns of protoactor's messages to the breaker.
func (b *breaker) receiveSystem(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Terminated:
		if t := b.cfg.Target.PID; t != nil && m.Who.Id == t.Id && m.Who.Address == t.Address {
			b.targetDown(ctx)
		}
	case *actor.Started:
		b.start(ctx)
	case *actor.Restarting:
		b.stop(errs.ErrBreakerRestarted)
	case *actor.Stopping:
		b.endDrain()
		b.unwatch(ctx)
		b.stop(b.cfg.Cell.StopError())
	case *actor.Stopped:
		// What is posted now waits for the supervisor's verdict.
		b.cfg.Mailbox.stopped()
		b.spawner.stopped(ctx.Self().Id)
	}
}

// receiveDirect takes the call path's turns, which its mailbox hands it
// without protoactor's context layers (they arrive after Started set
// actx); it reports false for any other message.
func (b *breaker) receiveDirect(msg any) bool {
	switch m := msg.(type) {
	case *Call:
		b.admit(b.actx, m)
	case *task.Completion:
		b.outcome(b.actx, m)
	case *expiry:
		b.expireAdmitted(b.actx, m.call)
	default:
		return false
	}
	return true
}

// resolve finds the breaker's key by its actor id in its first turn; false,
// stopping the actor, for a key unknown (the supervisor never lets it be).
func (b *breaker) resolve(ctx actor.Context) bool {
	cfg, ok := b.spawner.lookup(ctx.Self().Id)
	if !ok {
		ctx.Stop(copyOf(ctx.Self()))
		return false
	}
	b.cfg = cfg
	return true
}

func (b *breaker) start(ctx actor.Context) {
	b.actx = ctx
	b.cfg.Mailbox.setDirect(b) // this incarnation takes the call path's turns now
	b.rules = b.cfg.Rules()
	b.circuit = state.New(&b.rules.Circuit, b.cfg.Cell.nextIncarnation())
	b.cfg.Cell.publishRejecting(nil, time.Now())
	b.publishAdmits()
	b.watch(ctx)
	started := time.Now()
	b.lastActive = monoOf(started)
	for _, c := range b.cfg.Cell.adopt() {
		b.inflight.add(c) // admitted earlier: its outcome changes nothing here
	}
	b.armTick(ctx, started)
	b.armIdle(ctx, b.rules.IdleTimeout)
	b.since = started.UnixNano()
	prev := b.cfg.Cell.State()
	if prev != state.Closed || b.cfg.Cell.crashed() {
		// Every restart is a transition: events, logs and dashboards show it.
		b.reason = state.ReasonRestarted
		b.cfg.Cell.publish(state.Closed)
		b.emit(state.Transition{Key: b.cfg.Key, From: prev, To: state.Closed, At: started, Reason: state.ReasonRestarted}, b.circuit.Gen)
	}
	if s := b.cfg.Cell.stats.Load(); s != nil && s.win != nil {
		b.armDrain() // the window the crashed breaker kept
	}
}

// stop cancels the timers and ends the calls in flight, before a restart or
// a stop: after a crash (ErrBreakerRestarted) they carry over to the next
// breaker, so their targets' answers still reach their callers; otherwise
// each is answered with err.
func (b *breaker) stop(err error) {
	b.stopped = true
	b.cfg.Cell.admitting(nil, nil) // callers post their calls from now on
	b.publishQuiet()
	if errors.Is(err, errs.ErrBreakerRestarted) {
		for _, c := range b.inflight {
			c.index = -1
		}
		b.cfg.Cell.orphan(b.inflight)
	} else {
		for _, c := range b.inflight {
			c.index = -1
			c.abandon(context.Canceled)
			c.Settle(Result{Err: err})
		}
		b.cfg.settleAdmitted(err)
	}
	b.inflight = nil
	b.endTicks()
	if b.recoveryCancel != nil {
		b.recoveryCancel()
	}
}

func (b *breaker) admit(ctx actor.Context, c *Call) {
	if c.admittedIn != nil {
		// Its caller admitted it, but the circuit moved before its target
		// ran (Call.Redirect): it is the breaker's now, unless its end was
		// taken meanwhile (its deadline, its withdrawal).
		c.admittedIn = nil
		if !c.over.CompareAndSwap(endOpen, endTaken) {
			return
		}
		b.cfg.Cell.ended++
	}
	now := c.now()
	b.lastActive = monoOf(now)
	if !now.Before(c.Deadline) {
		// Its deadline passed in the mailbox: never asked, it counts neither way.
		b.count(state.TallyCanceled, now, 0, unmeasured)
		c.Settle(Result{Err: errs.ErrTimeout})
		return
	}
	var buf [2]state.Effect
	for _, e := range b.circuit.Apply(state.Event{Kind: state.Admit}, now, buf[:0]) {
		switch e.Kind {
		case state.Forward:
			b.forward(ctx, c, e.Gen, now)
		case state.Reject:
			b.publishRejecting()
			b.count(state.TallyRejected, now, 0, unmeasured)
			c.Settle(Result{Err: b.cfg.Cell.openError()})
		}
	}
	b.publishRejecting()
}

// publishRejecting publishes the OpenError callers fail fast with while
// the breaker would reject them, one per open period; every turn that may
// change the circuit ends here, so it publishes its quiet too.
func (b *breaker) publishRejecting() {
	b.publishQuiet()
	c, cell := &b.circuit, &b.cfg.Cell
	cur := cell.openError()
	if !c.Rejecting() {
		if cur != nil {
			cell.publishRejecting(nil, time.Now())
		}
		return
	}
	retryAt := c.RetryAt
	if c.State != state.Open {
		retryAt = time.Time{} // half-open: the probes decide
	}
	if cur != nil && b.rejectingGen == c.Gen && cur.RetryAt.Equal(retryAt) {
		// The same open period (every move is a new generation; RetryAt
		// alone does not tell forced from probing): the error stands.
		return
	}
	e := &errs.OpenError{Key: b.cfg.Key, RetryAt: retryAt, Cause: b.cfg.Cell.openCause()}
	if !retryAt.IsZero() {
		e.RetryAfter = retryAt.Sub(c.OpenedAt)
	}
	b.rejectingGen = c.Gen
	cell.publishRejecting(e, time.Now())
}

func (b *breaker) forward(ctx actor.Context, c *Call, gen state.Gen, now time.Time) {
	c.gen, c.admitted = gen, now
	if !b.watching && b.targetIsLocal(ctx) {
		// After a target_down the target may have been respawned: watch it
		// again first (a target still dead answers at once). One on another
		// node is watched again once it has answered (outcome).
		b.watch(ctx)
	}
	b.inflight.add(c)
	b.armTick(ctx, now)
	c.engage() // the target's hold on the call, until it is done with it
	if fn := b.cfg.Target.Func; fn != nil {
		c.job = task.Job{
			Ctx: c.ctx, Deadline: c.Deadline, Fn: fn, Msg: c.Msg,
			Classify: b.rules.Classify, ReplyTo: &b.cfg.Mailbox, Call: c,
		}
		b.cfg.Shared.Pool.See(now)
		b.cfg.Shared.Pool.Submit(&c.job)
		return
	}
	c.ask = &c.asker
	if b.sender == nil {
		b.sender = &task.Sender{}
	}
	c.ask.Start(b.cfg.Shared.Pool, b.sender, b.cfg.Target.PID, c.Msg, c.Deadline, b.cfg.Target.Header, c, b.rules.Classify)
}

func (b *breaker) outcome(ctx actor.Context, o *task.Completion) {
	c, ok := o.Call.(*Call)
	if !ok {
		return
	}
	if c.admittedIn != nil {
		if b.takeEnd(c, byOutcome) != counted {
			c.conclude(Result{Value: o.Value, Err: o.Err, Target: true}, byOutcome)
			return
		}
	} else if !b.inflight.remove(c) {
		// Late (Settle then fails), or carried over a crash.
		c.Settle(Result{Value: o.Value, Err: o.Err, Target: true})
		return
	}
	kind := state.Succeeded
	switch {
	case o.Ignored:
		kind = state.Ignored
	case o.Failed:
		kind = state.Failed
	}
	if kind == state.Succeeded && !b.watching && b.cfg.Target.PID != nil {
		// A target on another node answered after a target_down: its node
		// is back (watched before, the watch could reach the old
		// connection's endpoint, whose Terminated would open the circuit).
		b.watch(ctx)
	}
	now := since(c.admitted)
	b.lastActive = monoOf(now)
	b.end(ctx, c, kind, byOutcome, Result{Value: o.Value, Err: o.Err, Target: true}, now)
}

// How a call in flight ended (end, takeEnd).
type endedBy uint8

const (
	byOutcome    endedBy = iota // its target's outcome, which is its answer
	byDeadline                  // its deadline passed: a timeout
	byTargetDown                // its actor target died
	byWithdrawal                // its caller withdrew it
)

// end is where every call in flight ends: its verdict counts in the
// circuit (neither way if its caller withdrew it), then the caller gets res
// (and sees the state it caused), then the statistics count it in the same
// turn (a key cold in the caches keeps no caller waiting for them).
func (b *breaker) end(ctx actor.Context, c *Call, kind state.EventKind, by endedBy, res Result, now time.Time) {
	if b.carried(c) {
		// Admitted before a crash (Cell.orphan): its caller gets res, and it
		// counts nowhere, as a call its caller admitted then (takeEnd).
		c.conclude(res, by)
		return
	}
	timeout := by == byDeadline
	claimed := c.claim()
	canceled := !claimed && c.wasWithdrawn()
	if canceled {
		kind = state.Ignored
	}
	d := now.Sub(c.admitted)
	t, timed := b.tallyEnd(kind, canceled, timeout, res.Err, d)
	if kind != state.Succeeded || !b.circuit.Quiet() {
		b.step(ctx, state.Event{Kind: kind, Gen: c.gen, Duration: d, Timeout: timeout, Rand: rand.Float64()}, now)
	}
	// A function target's context ends with its call; the answer is the
	// last touch of c (its caller may reuse it then, if spent).
	c.ctx.Cancel(context.Canceled)
	if claimed {
		c.spent = by == byOutcome
		c.deliver(res)
	}
	b.count(t, now, d, timed)
}

// carried reports whether c was admitted by an earlier incarnation.
func (b *breaker) carried(c *Call) bool { return c.gen.Incarnation != b.circuit.Gen.Incarnation }

func (b *breaker) withdraw(ctx actor.Context, c *Call) {
	if c.admittedIn != nil {
		switch b.takeEnd(c, byWithdrawal) {
		case again:
			return
		case uncounted: // of an earlier incarnation: it counts nowhere, but its ask ends
			c.abandon(context.Canceled)
			return
		}
	} else if !b.inflight.remove(c) {
		return
	} else if b.carried(c) { // carried over a crash: it counts nowhere (see end)
		b.lastActive = monoOf(time.Now()) // but it is the key's activity (takeEnd)
		c.abandon(context.Canceled)
		return
	}
	c.abandon(context.Canceled)
	now := time.Now()
	b.lastActive = monoOf(now)
	b.count(state.TallyCanceled, now, 0, unmeasured)
	b.step(ctx, state.Event{Kind: state.Ignored, Gen: c.gen}, now)
}

// step feeds ev to the circuit and carries out the effects, announcing its
// moves last, once callers see all of the new state: a subscriber that
// calls the key as soon as it hears "closed" is admitted.
func (b *breaker) step(ctx actor.Context, ev state.Event, now time.Time) {
	var buf [4]state.Effect
	effects := b.circuit.Apply(ev, now, buf[:0])
	for _, e := range effects {
		switch e.Kind {
		case state.Moved:
			b.cfg.Cell.publish(e.To)
			b.publishAdmits()
			b.since, b.reason = now.UnixNano(), e.Reason
		case state.StartTimer:
			if b.recoveryCancel != nil {
				b.recoveryCancel()
			}
			b.recoveryCancel = b.after(e.After, &recoveryTimer{Gen: e.Gen})
		}
	}
	b.publishRejecting()
	for _, e := range effects {
		if e.Kind == state.Moved {
			b.announce(e, now)
		}
	}
}
