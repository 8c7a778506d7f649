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
// answer (which enforces every deadline) before it gives up with
// ErrTimeout on its own (the backstop).
const ReplyGrace = 20 * time.Millisecond

// Caller is the callers' half of the call protocol, one per registry (its
// pool of calls, each with its backstop timer, never crosses a synctest
// bubble).
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

// Now is time.Now, its monotonic reading exact and its wall reading at
// most a second behind the wall clock: it reads only the monotonic clock
// (half the cost on some machines) from a full reading a second old at most.
func (k *Caller) Now() time.Time {
	base := k.clock.Load()
	if d := time.Since(*base); d >= 0 && d < time.Second {
		return base.Add(d)
	}
	now := time.Now()
	k.clock.Store(&now)
	return now
}

// Do posts a call for msg to mb (or, while the circuit is closed, sends it
// to its target itself: admit) and returns its one answer: the target's
// (Result.Target), ErrTimeout at deadline, ctx's cancellation, or why the
// key has no breaker any more. now is when the caller read the clock
// (time.Now's, with its monotonic reading). The call holds the MaxInFlight
// slot cell.Admit(limit) counted until it and its target are done.
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
		// or its deadline, which the backstop posts.
		if adm.send == nil {
			k.watch(c, due)
			k.pool.See(now)
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
// in a closed circuit an admission changes nothing. The caller then sends
// an actor target's ask itself, or a function target's job to a worker,
// which hands it to the breaker if the circuit moved (Call.Redirect).
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
// deadline may take it at now, else nil. The call is counted admitted
// before the admission is read (and uncounted if none), so a breaker that
// takes its admission back, then counts none, has none on its way.
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

// newCall returns a call for mb's key, from the pool if it has one (reset:
// its caller begins its round), with a function target's context.
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

// wait returns c's one answer, waiting on its channel and ctx alone. It
// hands meanwhile an actor target's reply to the breaker, classified here
// or, by a classifier of the key's own, on a worker: user code must never
// hold a caller past its deadline.
func (k *Caller) wait(ctx context.Context, mb *Mailbox, c *Call) Result {
	cancelled := ctx.Done()
	for {
		if cancelled == nil {
			<-c.signal
		} else {
			select {
			case <-c.signal:
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
		ask, res := c.take()
		if ask == nil {
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
		case <-c.signal:
			if ask, res := c.take(); ask == nil {
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
