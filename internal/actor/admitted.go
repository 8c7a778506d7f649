package actor

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/state"
)

// The calls a key's callers admit themselves while its circuit is closed
// (Caller.admit) are not in the breaker's table: the breaker learns of each
// from its end — its outcome, its withdrawal or its deadline, which the
// caller's timer posts — and the first of them ends it (takeEnd). A call
// admitted in an earlier incarnation of the breaker is answered and counts
// nowhere, like the calls a crash leaves in flight.

// publishAdmits lets callers admit calls themselves while the circuit is
// closed — for an actor target, once the breaker watches it if it is to —
// and stops them otherwise.
func (b *breaker) publishAdmits() {
	c := &b.circuit
	b.publishQuiet()
	pid := b.cfg.Target.PID
	if c.State != state.Closed || b.stopped || (pid != nil && b.rules.WatchTarget && !b.watching) {
		b.cfg.Cell.admitting(nil, nil)
		return
	}
	if pid != nil && b.sender == nil {
		b.sender = &task.Sender{}
	}
	b.cfg.Cell.admitting(&c.Gen, b.sender)
}

// publishQuiet tells the workers whether a success would change nothing
// in the circuit (Circuit.Quiet), so a hot key's workers may take their
// successes without a turn (Call.Finish).
func (b *breaker) publishQuiet() {
	cell := &b.cfg.Cell
	q := b.circuit.Quiet() && !b.stopped
	if was := cell.flags.Load()&flagQuiet != 0; q == was {
		return
	}
	if q {
		cell.flags.Or(flagQuiet)
	} else {
		cell.flags.And(^uint32(flagQuiet))
	}
}

// An end of a call its caller admitted, as takeEnd finds it.
type ending uint8

const (
	again     ending = iota // it has ended before: nothing to do
	uncounted               // its first end, of an earlier incarnation's call
	counted                 // its first end, of this incarnation's: it counts, once
)

// takeEnd takes an end of a call its caller admitted; its outcome also
// takes an end its worker handed on (Call.Finish).
func (b *breaker) takeEnd(c *Call, by endedBy) ending {
	if !c.over.CompareAndSwap(endOpen, endTaken) && (by != byOutcome || !c.over.CompareAndSwap(endHanded, endTaken)) {
		return again
	}
	b.cfg.Cell.ended++
	if c.gen.Incarnation != b.circuit.Gen.Incarnation {
		// Its end counts nowhere, but it is the key's activity, as a call
		// a crash carried over is when it ends (IdleTimeout).
		b.lastActive = monoOf(time.Now())
		return uncounted
	}
	return counted
}

// expireAdmitted is the deadline of a call its caller admitted: unless it
// has ended, it fails with ErrTimeout, as a call in the table does at its
// deadline tick.
func (b *breaker) expireAdmitted(ctx actor.Context, c *Call) {
	if c.admittedIn == nil {
		return // the breaker admitted it after all: its deadline tick ends it
	}
	e := b.takeEnd(c, byDeadline)
	if e == again {
		return
	}
	c.abandon()
	c.ctx.Cancel(context.DeadlineExceeded)
	if e == uncounted {
		c.Settle(Result{Err: errs.ErrTimeout})
		return
	}
	now := time.Now()
	b.lastActive = monoOf(now)
	b.end(ctx, c, b.deadlineKind(c), byDeadline, Result{Err: errs.ErrTimeout}, now)
}

// SettleOrphans answers with err every call of the key still in flight
// when no breaker follows the last one (the key was unregistered, or the
// registry shut down, while it restarted): those a crash left in flight
// (Cell.SettleOrphans) and those its callers admitted. Only the supervisor
// and the registry's shutdown call it.
func (cfg *Config) SettleOrphans(err error) {
	cfg.Cell.settleOrphans(err)
	cfg.settleAdmitted(err)
}

// settleAdmitted answers with err the calls its callers admitted whose
// targets are running, when the key's breaker stops for good (it is
// unregistered, or the registry shuts down), as the breaker answers the
// calls in its table; their targets' contexts end. Their outcomes, when they
// come, reach a mailbox that refuses them.
func (cfg *Config) settleAdmitted(err error) {
	if cfg.Cell.admittedInFlight() == 0 {
		return // none in flight: no need to look
	}
	if cfg.Target.PID != nil {
		for _, c := range cfg.asking() {
			c.ctx.Cancel(context.Canceled)
			c.Settle(Result{Err: err})
		}
		return
	}
	mb := task.Inbox(&cfg.Mailbox)
	cfg.Shared.Pool.Running(func(j *task.Job) {
		if c, ok := j.Call.(*Call); ok && j.ReplyTo == mb {
			c.ctx.Cancel(context.Canceled)
			c.Settle(Result{Err: err})
		}
	})
}

// asking abandons the asks of the calls its callers admitted that still
// wait for the actor target's reply, and returns their calls: whoever
// calls it answers them.
func (cfg *Config) asking() []*Call {
	var calls []*Call
	// The key's admitted calls cannot be answered meanwhile (their
	// answers come from this breaker's turns): their asks stay theirs.
	waiting := cfg.Shared.Pool.Replies().Waiting(&cfg.Mailbox)
	for _, a := range waiting {
		if a.Abandon() { // else its reply came: its outcome is on its way
			calls = append(calls, a.Call().(*Call))
		}
	}
	return calls
}

// targetDownAdmitted fails with ErrTargetDown the calls its callers
// admitted that wait for the target that died, as targetDown fails those
// in the table.
func (b *breaker) targetDownAdmitted(ctx actor.Context, now time.Time) {
	if b.cfg.Cell.admittedInFlight() == 0 {
		return
	}
	for _, c := range b.cfg.asking() {
		c.ask = nil
		e := b.takeEnd(c, byTargetDown)
		c.ctx.Cancel(context.Canceled)
		if e != counted {
			c.Settle(Result{Err: errs.ErrTargetDown})
			continue
		}
		b.end(ctx, c, state.Failed, byTargetDown, Result{Err: errs.ErrTargetDown}, now)
	}
}
