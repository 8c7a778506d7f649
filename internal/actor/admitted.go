package actor

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/state"
)

// The calls callers admit themselves while the circuit is closed
// (Caller.admit) are not in the breaker's table: the breaker learns of each
// from its end (its outcome, withdrawal or deadline), the first of which
// ends it (takeEnd). One admitted in an earlier incarnation counts nowhere.

// publishAdmits lets callers admit calls themselves while the circuit is
// closed (for an actor target, once it is watched if it is to be), and
// stops them otherwise.
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

// publishQuiet tells a hot key's workers whether a success would change
// nothing in the circuit (Circuit.Quiet), so they may take it (Call.Finish).
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
// has ended, it fails with ErrTimeout, as one in the table does.
func (b *breaker) expireAdmitted(ctx actor.Context, c *Call) {
	if c.admittedIn == nil {
		return // the breaker admitted it after all: its deadline tick ends it
	}
	e := b.takeEnd(c, byDeadline)
	if e == again {
		return
	}
	c.abandon(context.DeadlineExceeded)
	if e == uncounted {
		c.Settle(Result{Err: errs.ErrTimeout})
		return
	}
	now := time.Now()
	b.lastActive = monoOf(now)
	b.end(ctx, c, b.deadlineKind(c), byDeadline, Result{Err: errs.ErrTimeout}, now)
}

// SettleOrphans answers with err every call of the key still in flight
// when no breaker follows the last (the key went away while it restarted):
// those a crash left, and those its callers admitted. The supervisor's and
// the registry's shutdown's.
func (cfg *Config) SettleOrphans(err error) {
	cfg.Cell.settleOrphans(err)
	cfg.settleAdmitted(err)
}

// settleAdmitted answers with err, and ends the contexts of, the calls its
// callers admitted whose targets run, when the key's breaker stops for good
// (their outcomes reach a mailbox that refuses them).
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

// asking abandons the asks of the calls its callers admitted that wait for
// the actor target's reply, and returns their calls, for whoever calls it
// to answer (nobody else can meanwhile: their answers come from this turn).
func (cfg *Config) asking() []*Call {
	var calls []*Call
	for _, a := range cfg.Shared.Pool.Replies().Waiting(&cfg.Mailbox) {
		if a.Abandon() { // else its reply came: its outcome is on its way
			calls = append(calls, a.Call().(*Call))
		}
	}
	return calls
}

// targetDownAdmitted fails with ErrTargetDown the calls its callers
// admitted that wait for the dead target, as targetDown those in the table.
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
