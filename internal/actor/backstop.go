package actor

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/tripwire-go/tripwire/internal/errs"
)

// backstop is a caller's timer of last resort: at its call's deadline plus
// ReplyGrace it answers the call with ErrTimeout if nobody has (a call its
// caller admitted gets its expiry posted to its breaker at the deadline
// first). It is its call's for life and stays armed across uses, so a use
// costs no timer operation (it arms it only if it would fire too late); it
// acts only in the round it read, never on a use that followed.
type backstop struct {
	k    *Caller
	t    *time.Timer
	call *Call

	// mu serializes arming the timer; armed is when it fires (0: it is not
	// armed), written under mu.
	mu    sync.Mutex
	armed atomic.Int64
}

// A call's due (Call.due) is when its backstop acts first, in nanoseconds
// since its Caller's born, shifted left by one, early in the low bit.
// notWatched: its caller must act first (send an ask), then watch says when.
const notWatched = math.MaxInt64

// never is the latest due: 146 years, for a CallTimeout of "no timeout".
const never = math.MaxInt64>>1 - 1

// Whether a use's backstop acts at its deadline first (dueOf): for a call
// its caller admitted, whose expiry then goes to its breaker.
const (
	atGrace    = false
	atDeadline = true
)

// dueOf is the due of a use with deadline.
func (k *Caller) dueOf(deadline time.Time, early bool) int64 {
	due := deadline.Sub(k.born)
	if !early {
		return min(int64(graceAfter(due)), never) << 1
	}
	return min(int64(due), never)<<1 | 1
}

// watch makes c's backstop (made on the call's first use) watch its use,
// due at d (dueOf), arming the timer if it would fire too late.
func (k *Caller) watch(c *Call, d int64) {
	if c.due.Load() != d {
		c.due.Store(d) // a use started notWatched: its caller's work is done
	}
	bs := c.bs
	if bs == nil {
		bs = k.newBackstop(c)
		c.bs = bs
	}
	at := d >> 1
	// Read after the round is written (Call.begin): if the timer is firing
	// now, either this sees it unarmed, or the firing sees this round.
	if a := bs.armed.Load(); a == 0 || a > at {
		bs.mu.Lock()
		if a := bs.armed.Load(); a == 0 || a > at {
			bs.arm(at)
		}
		bs.mu.Unlock()
	}
}

// newBackstop returns c's backstop, its timer not armed.
func (k *Caller) newBackstop(c *Call) *backstop {
	bs := &backstop{k: k, call: c}
	// The timer holds its backstop weakly: a call dropped, answered, with
	// its backstop armed is collected; its timer fires once for nothing.
	w := weak.Make(bs)
	bs.t = time.AfterFunc(maxArm, func() {
		if bs := w.Value(); bs != nil {
			bs.fire()
		}
	}) // armed again by watch
	k.made.Lock()
	defer k.made.Unlock()
	if len(k.made.all) >= k.made.prune {
		k.made.all = slices.DeleteFunc(k.made.all, func(w weak.Pointer[backstop]) bool { return w.Value() == nil })
		k.made.prune = max(64, 2*len(k.made.all))
	}
	k.made.all = append(k.made.all, w)
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

// maxArm is the furthest ahead a backstop's timer is armed (one due later
// fires early and arms itself again), so a backstop whose call was
// collected leaves no timer for longer than this.
const maxArm = time.Minute

// arm makes the timer fire at due, or maxArm from now if that is sooner;
// mu held.
func (bs *backstop) arm(due int64) {
	now := time.Since(bs.k.born)
	in := time.Duration(due) - now
	if in > maxArm {
		in, due = maxArm, int64(now+maxArm)
	}
	bs.armed.Store(due)
	bs.t.Reset(in)
}

// fire does what is due for the call's use in the round it reads, and
// arms the timer for what comes next. An expiry posted here may take the
// breaker's turn on this goroutine, under mu (only arming waits for it).
func (bs *backstop) fire() {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	bs.armed.Store(0)
	c := bs.call
	for {
		s := c.status.Load()
		round := s >> roundShift
		d := c.due.Load() // this round's, or a later one's (Call.begin)
		if s&stateBits == pending && d != notWatched {
			due, early := d>>1, d&1 != 0
			if early && s&posted != 0 {
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
				c.expire(errs.ErrTimeout, round)
				at = 0
			}
			if a := bs.armed.Load(); at != 0 && (a == 0 || at < a) {
				bs.arm(at)
			}
		}
		// A use its caller started since this looked either saw the timer
		// unarmed (and arms it), or is seen here.
		if c.status.Load()>>roundShift == round {
			return
		}
	}
}
