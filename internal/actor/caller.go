package actor

import (
	"context"
	"errors"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tripwire-go/tripwire/internal/task"
)

// ReplyGrace is how long past its deadline a caller waits for its breaker's
// answer before it gives up with ErrTimeout on its own (the backstop). The
// breaker enforces every deadline itself; the grace only matters if the
// breaker is too busy to answer in time.
const ReplyGrace = 20 * time.Millisecond

// Caller is the callers' half of the call protocol, one per registry: it
// makes a Call, posts it to its key's Mailbox and waits for the one answer
// (see the package doc). Its pool of calls (each with its backstop timer)
// is per registry, so it never crosses a synctest bubble.
type Caller struct {
	pool  *task.Pool // runs the classifier of an actor target's reply
	calls sync.Pool  // *Call answered and reusable, with its backstop
	born  time.Time  // the base of the backstops' times
	made  backstops
	clock atomic.Pointer[time.Time] // the full reading Now counts from
}

// NewCaller returns the caller side of a registry whose workers are pool's.
func NewCaller(pool *task.Pool) *Caller {
	k := &Caller{pool: pool, born: time.Now()}
	t := k.born
	k.clock.Store(&t)
	return k
}

// Now is time.Now, with its monotonic reading exact and its wall reading
// at most a second behind a change of the wall clock: it reads only the
// monotonic clock, from a full reading it takes again once a second old,
// which on some machines costs half a full reading.
func (k *Caller) Now() time.Time {
	base := k.clock.Load()
	if d := time.Since(*base); d >= 0 && d < time.Second {
		return base.Add(d)
	}
	now := time.Now()
	k.clock.Store(&now)
	return now
}

// Do posts a call for msg to mb — or, while the key's circuit is closed,
// sends it to its target itself (admit) — and returns its one answer: the
// target's (Result.Target), ErrTimeout at deadline, context.Canceled when
// ctx is cancelled first, or why the key has no breaker any more. now is
// when the caller read the clock (time.Now, with its monotonic reading).
// The call occupies the MaxInFlight slot that cell.Admit(limit) counted
// until it has its answer and its target is done with it.
func (k *Caller) Do(ctx context.Context, mb *Mailbox, cell *Cell, limit int, msg any, deadline, now time.Time) Result {
	adm := admissionOf(mb, deadline, now)
	due := k.dueOf(deadline, adm != nil)
	if adm != nil && adm.send != nil {
		due = notWatched // until its ask is sent: the expiry abandons the ask
	}
	c := k.newCall(mb, ctx, msg, deadline, now)
	c.holdSlot(cell, limit)
	if adm != nil {
		k.admit(mb, c, adm, now)
	}
	c.begin(due)
	if adm != nil {
		// The breaker learns of the call from its outcome, its withdrawal
		// or its deadline, which the backstop posts (and ReplyGrace later,
		// if the breaker has not answered by then, answers itself).
		if adm.send == nil {
			k.watch(c, due)
			k.pool.Submit(&c.job)
		} else {
			c.ask = &c.asker
			c.ask.Start(k.pool, adm.send, mb.owner.Target.PID, c.Msg, c.Deadline, mb.owner.Target.Header, c, mb.owner.Rules().Classify)
			k.watch(c, k.dueOf(deadline, atDeadline))
		}
	} else {
		k.watch(c, due)
		mb.PostUserMessage(c)
	}
	res := k.wait(ctx, mb, c)
	c.Release()
	// A call that cannot be reused keeps its backstop, which its timer
	// holds weakly: both go once nothing else refers to the call.
	if c.reusable() {
		k.calls.Put(c) // reset when taken; the pool drops it within two GCs
	}
	return res
}

// admit admits c without a turn of its breaker, under adm (admissionOf):
// before its deadline, while the key's running breaker publishes a closed
// circuit, in which an admission changes nothing and always forwards
// (Cell.admits). The caller then sends the call itself: an
// ask of an actor target at once (through the breaker's Sender, which never
// blocks), a function target's job to a worker, which checks, just before
// the target runs, that the circuit has not moved meanwhile, and hands it
// to the breaker otherwise (Call.Redirect), so a function never runs for a
// call the circuit would not have admitted.
func (k *Caller) admit(mb *Mailbox, c *Call, adm *admission, now time.Time) {
	cfg := mb.owner // (admissionOf counted the call)
	c.admittedIn, c.gen, c.admitted, c.mb = adm, adm.gen, now, mb
	c.expiry.call = c
	c.engage() // the target's hold on the call, until it is done with it
	if fn := cfg.Target.Func; fn != nil {
		c.job = task.Job{
			Ctx: c.ctx, Deadline: c.Deadline, Fn: fn, Msg: c.Msg,
			Classify: cfg.Rules().Classify, ReplyTo: mb, Call: c, ByCaller: true,
		}
	}
}

// admissionOf is the admission of the key's closed circuit if a call due at
// deadline may take it at now (see admit), else nil. The call is counted
// among the admitted before the admission is read (and uncounted if there
// is none): a breaker that takes its admission back and then counts no call
// admitted has none on its way (checkIdle).
func admissionOf(mb *Mailbox, deadline, now time.Time) *admission {
	cfg := mb.owner
	if cfg == nil || !now.Before(deadline) {
		return nil
	}
	cell := &cfg.Cell
	cell.admitted.Add(1)
	if adm := cell.admits.Load(); adm != nil {
		return adm
	}
	cell.admitted.Add(^uint32(0))
	return nil
}

// newCall returns a call for mb's key, from the pool if one is there
// (reset: its caller begins its round); a call of a function target gets
// the context the target will run with.
func (k *Caller) newCall(mb *Mailbox, ctx context.Context, msg any, deadline, now time.Time) *Call {
	c, ok := k.calls.Get().(*Call)
	if !ok {
		return newCall(ctx, msg, deadline, now)
	}
	c.reset(ctx, msg, deadline, now)
	if mb.owner == nil || mb.owner.Target.Func != nil {
		c.forFunc()
	}
	return c
}

// wait returns the one answer of c, posted to mb or handed to a worker. The caller waits on its
// call's own channel (and its context's), never on one other callers share.
// The one thing it does meanwhile is hand an actor target's reply to the
// breaker (Reply): classified here, or on a worker if the key has a
// classifier of its own — user code must never hold a caller past its
// deadline.
func (k *Caller) wait(ctx context.Context, mb *Mailbox, c *Call) Result {
	cancelled := ctx.Done()
	for {
		if cancelled == nil {
			<-c.signaled()
		} else {
			select {
			case <-c.signaled():
			case <-cancelled:
				cancelled = nil
				if errors.Is(ctx.Err(), context.Canceled) && c.withdraw() {
					mb.PostUserMessage(&withdrawal{Call: c})
					return Result{Err: ctx.Err()}
				}
				// Its deadline (the breaker answers ErrTimeout), or an
				// answer given at this very moment: it is on its way.
				continue
			}
		}
		got, res, ask := c.take()
		if got == gotAnswer {
			return res
		}
		if ask.Classifies() {
			k.pool.Go(func() { mb.PostUserMessage(ask.Completion()) })
			continue
		}
		if o := ask.Completion(); !c.Finish(o) {
			mb.PostUserMessage(o)
		}
		// Its turn usually ran inline, on this goroutine (or Finish
		// answered it here): take the answer without blocking again.
		if res, ok := answered(c); ok {
			return res
		}
	}
}

// answered returns the call's answer if it is already there, skipping a
// reply that no breaker will take any more.
func answered(c *Call) (Result, bool) {
	for {
		select {
		case <-c.signaled():
			if got, res, _ := c.take(); got == gotAnswer {
				return res, true
			}
		default:
			return Result{}, false
		}
	}
}

// graceAfter is wait + ReplyGrace, saturating instead of overflowing for a
// CallTimeout near math.MaxInt64 ("no timeout").
func graceAfter(wait time.Duration) time.Duration {
	if wait > math.MaxInt64-ReplyGrace {
		return math.MaxInt64
	}
	return wait + ReplyGrace
}
