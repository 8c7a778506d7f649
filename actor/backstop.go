package actor

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/tripwire-go/tripwire/internal/errs"
)

// backstop is a caller's timer of last resort: at its call's deadline plus
// ReplyGrace it answers the call with ErrTimeout if nobody else has. For a
// call its caller admitted (Caller.admit) it fires at the deadline first,
// and posts the call's expiry to its breaker, which counts the timeout and
// answers.
//
// A backstop outlives its calls: the caller's pool keeps it, still armed,
// between them, so a call costs no timer operation. A call only writes what
// the backstop watches (the call, its round, when it is due) and arms the
// timer if it would fire too late; when it fires early, for a call since
// answered, it arms itself again for the call it watches then, or for none.
// It acts on a call only in the round it watched, so a call answered and
// reused meanwhile is never touched.
type backstop struct {
	k *Caller
	t *time.Timer

	// What the backstop watches, written by its caller alone: a seqlock,
	// ver odd while the caller writes.
	ver  atomic.Uint64
	call atomic.Pointer[Call]
	// round<<1 | early: the call's round, and whether its caller admitted
	// it (its deadline then goes to its breaker first)
	round atomic.Uint64
	due   atomic.Int64 // when: the deadline if early, else deadline + ReplyGrace (since Caller.born)

	// mu serializes arming the timer; armed is when it fires (0: it is not
	// armed), written under mu.
	mu    sync.Mutex
	armed atomic.Int64
}

// watch makes c's backstop watch it, due at deadline (early: the call's
// caller admitted it) or ReplyGrace after it. A call keeps its backstop
// while it is reused (unwatch), saving the pool's Get and Put a call; a
// new one takes one from the pool if one is there.
func (k *Caller) watch(c *Call, deadline time.Time, early bool) {
	bs := c.bs
	if bs == nil {
		var ok bool
		if bs, ok = k.timers.Get().(*backstop); !ok {
			bs = k.newBackstop()
		}
		c.bs = bs
	}
	bs.watch(c, deadline, early)
}

// newBackstop returns a backstop watching nothing, its timer not armed.
func (k *Caller) newBackstop() *backstop {
	bs := &backstop{k: k}
	bs.t = time.AfterFunc(time.Duration(1<<62), bs.fire) // armed by watch
	k.made.Lock()
	defer k.made.Unlock()
	if len(k.made.all) >= k.made.prune {
		k.made.all = slices.DeleteFunc(k.made.all, func(w weak.Pointer[backstop]) bool { return w.Value() == nil })
		k.made.prune = max(64, 2*len(k.made.all))
	}
	k.made.all = append(k.made.all, weak.Make(bs))
	return bs
}

// backstops are the backstops a Caller made that may still be alive (an
// armed timer keeps its backstop alive), so Close can stop their timers.
type backstops struct {
	sync.Mutex
	all   []weak.Pointer[backstop]
	prune int // the length at which the collected ones are dropped from all
}

// Close stops the timers of the caller's backstops, so none fires after the
// registry has shut down; every call has its answer by then.
func (k *Caller) Close() {
	k.made.Lock()
	defer k.made.Unlock()
	for _, w := range k.made.all {
		if bs := w.Value(); bs != nil {
			bs.mu.Lock()
			bs.t.Stop()
			bs.armed.Store(0)
			bs.mu.Unlock()
		}
	}
	k.made.all = nil
}

// watch makes bs watch c, due at deadline (early) or ReplyGrace after it.
func (bs *backstop) watch(c *Call, deadline time.Time, early bool) {
	due := int64(deadline.Sub(bs.k.born))
	if !early {
		due = int64(graceAfter(time.Duration(due)))
	}
	r := c.round() << 1
	if early {
		r |= 1
	}
	bs.ver.Add(1)
	bs.call.Store(c)
	bs.round.Store(r)
	bs.due.Store(due)
	bs.ver.Add(1)
	// Read after the call is written: if the timer is firing now, either
	// this sees it unarmed, or the firing sees this call (fire).
	if a := bs.armed.Load(); a == 0 || a > due {
		bs.mu.Lock()
		if a := bs.armed.Load(); a == 0 || a > due {
			bs.arm(due)
		}
		bs.mu.Unlock()
	}
}

// unwatch lets go of c, which has its answer, and reports whether c can
// be reused (Call.Reusable). A reusable call keeps its backstop, armed as
// it is, for its next use; the backstop of one that cannot is pooled.
func (k *Caller) unwatch(c *Call) bool {
	bs := c.bs
	bs.forget()
	if c.Reusable() {
		return true
	}
	c.bs = nil
	k.timers.Put(bs)
	return false
}

// forget makes bs watch nothing. It need not move ver on: a firing that
// read the call before sees a call answered, and fire's look again is for
// calls watched since.
func (bs *backstop) forget() { bs.call.Store(nil) }

// arm makes the timer fire at due; mu held.
func (bs *backstop) arm(due int64) {
	bs.armed.Store(due)
	bs.t.Reset(time.Duration(due) - time.Since(bs.k.born))
}

// watched reads what the backstop watches, consistently.
func (bs *backstop) watched() (ver uint64, c *Call, round uint64, due int64, early bool) {
	for {
		v := bs.ver.Load()
		if v&1 == 0 {
			c, round, due = bs.call.Load(), bs.round.Load(), bs.due.Load()
			if bs.ver.Load() == v {
				return v, c, round >> 1, due, round&1 != 0
			}
		}
	}
}

// fire is the timer: it does what is due for the call watched, in the
// round watched, and arms itself for what comes next, if anything does. A
// call's expiry posted here may take the breaker's turn on this goroutine,
// under mu: only the caller's arming waits for it.
func (bs *backstop) fire() {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	bs.armed.Store(0)
	for {
		ver, c, round, due, early := bs.watched()
		if c != nil && c.pendingIn(round) {
			if early && c.wasPosted(round) {
				due, early = int64(graceAfter(time.Duration(due))), false
			}
			at := due
			switch now := int64(time.Since(bs.k.born)); {
			case now < due:
			case early:
				if c.post(round) {
					c.mb.PostUserMessage(&c.expiry)
				}
				at = int64(graceAfter(time.Duration(due)))
			default:
				c.expire(errs.ErrTimeout, round, false)
				at = 0
			}
			if a := bs.armed.Load(); at != 0 && (a == 0 || at < a) {
				bs.arm(at)
			}
		}
		// A call its caller gave the backstop since it looked at it either
		// saw it unarmed (and arms it), or is seen here.
		if bs.ver.Load() == ver {
			return
		}
	}
}
