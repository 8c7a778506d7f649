package actor

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/task"
)

// The calls a function target's callers admit themselves while its
// circuit is closed (Caller.admit) are not in the breaker's table: the
// breaker learns of each from its end — its outcome, its withdrawal or its
// deadline, which the caller's timer posts — and the first of them ends it
// (takeEnd). A call admitted in an earlier incarnation of the breaker is
// answered and counts nowhere, like the calls a crash leaves in flight.

// publishAdmits lets callers admit calls themselves while the circuit is
// closed, and stops them otherwise.
func (b *breaker) publishAdmits() {
	if b.cfg.Target.Func == nil || b.circuit.State != state.Closed || b.stopped {
		b.cfg.Cell.admitting(nil)
		return
	}
	b.cfg.Cell.admitting(&b.circuit.Gen)
}

// takeEnd reports whether this is the first end of a call its caller
// admitted, and of this incarnation's: it then counts, once.
func (b *breaker) takeEnd(c *Call) bool {
	if c.over {
		return false
	}
	c.over = true
	b.cfg.Cell.ended++
	return c.gen.Incarnation == b.circuit.Gen.Incarnation
}

// expireAdmitted is the deadline of a call its caller admitted: unless it
// has ended, it fails with ErrTimeout, as a call in the table does at its
// deadline tick.
func (b *breaker) expireAdmitted(ctx actor.Context, c *Call) {
	if c.admittedIn == nil {
		return // the breaker admitted it after all: its deadline tick ends it
	}
	first := !c.over
	counts := b.takeEnd(c)
	if !first {
		return
	}
	c.ctx.cancel(context.DeadlineExceeded)
	if !counts {
		c.Settle(Result{Err: errs.ErrTimeout})
		return
	}
	now := time.Now()
	b.lastActive = monoOf(now)
	b.end(ctx, c, state.Failed, true, false, Result{Err: errs.ErrTimeout}, now)
}

// SettleOrphans answers with err every call of the key still in flight
// when no breaker follows the last one (the key was unregistered, or the
// registry shut down, while it restarted): those a crash left in flight
// (Cell.SettleOrphans) and those its callers admitted. Only the supervisor
// and the registry's shutdown call it.
func (cfg *Config) SettleOrphans(err error) {
	cfg.Cell.SettleOrphans(err)
	cfg.settleAdmitted(err)
}

// settleAdmitted answers with err the calls its callers admitted whose
// targets are running, when the key's breaker stops for good (it is
// unregistered, or the registry shuts down), as the breaker answers the
// calls in its table; their targets' contexts end. Their outcomes, when they
// come, reach a mailbox that refuses them.
func (cfg *Config) settleAdmitted(err error) {
	if cfg.Cell.admitted.Load() == cfg.Cell.ended {
		return // none in flight: no need to look
	}
	mb := task.Inbox(&cfg.Mailbox)
	cfg.Shared.Pool.Running(func(j *task.Job) {
		if c, ok := j.Token.(*Call); ok && j.ReplyTo == mb {
			c.ctx.cancel(context.Canceled)
			c.Settle(Result{Err: err})
		}
	})
}
