package actor

import (
	"slices"
	"sync/atomic"
	"time"

	"github.com/tripwire-go/tripwire/internal/borrowed"
	"github.com/tripwire-go/tripwire/internal/errs"
)

// lookEvery is how many rejections of a key (or of one of its stripes)
// pass between two in which the rejected caller looks whether it should
// yield its core (see spun): a caller that retries ErrOpen in a tight loop
// never blocks, and a thousand of them would keep the goroutines whose
// answers are ready — their calls timed out, their fast failure waiting —
// from running for seconds.
const lookEvery = 64

// contendedAt is how many rejections of an open period that lost the
// count's cache line to another core make the key flooded.
const contendedAt = 64

// Cell flags.
const (
	flagPassivated = 1 << iota // the breaker stopped itself for being idle
	flagFlood                  // the rejections count on stripes (see Reject)
	flagWindow                 // the key's statistics have a window (see Cell.window)
	flagQuiet                  // the running breaker's circuit is Quiet (see Call.Finish)
)

// rejecting is what a rejecting breaker publishes, one per open period: the
// error its callers answer themselves with, and the stripes they count on
// once the key is flooded.
type rejecting struct {
	err       *errs.OpenError
	stripes   atomic.Pointer[stripes]
	contended atomic.Uint32 // rejections that lost the count's line to another core
}

// stripes are counters a cache line apart, for callers flooding one key
// from every core, which would otherwise take turns at one line.
type stripes [4]struct {
	n atomic.Uint64
	_ [56]byte
}

// stripe picks a stripe for the calling goroutine by the processor it runs
// on, so callers on one core count on one line and callers on another on
// another; by the goroutine's stack, the line a caller wrote was last
// written by the other core about half the time, however many stripes.
func stripe() int { return borrowed.Processor() % len(stripes{}) }

func (s *stripes) total() (n uint64) {
	for i := range s {
		n += s[i].n.Load()
	}
	return n
}

// openError is the error the breaker would answer a call with now — the
// circuit is open, or half-open with all its probes in flight — or nil.
func (c *Cell) openError() *errs.OpenError {
	if r := c.rejection.Load(); r != nil {
		return r.err
	}
	return nil
}

// Rejecting reports whether the key's callers answer calls themselves now.
func (c *Cell) Rejecting() bool { return c.rejection.Load() != nil }

// Reject is the OpenError for a caller that answers itself with it, if the
// circuit rejects: it counts the rejection on the Cell's own line (a cold
// key's open path reads nothing more), or on stripes once callers on
// several cores contend for that line.
func (c *Cell) Reject() *errs.OpenError {
	r := c.rejection.Load()
	if r == nil {
		return nil
	}
	if c.flags.Load()&flagFlood != 0 {
		c.rejectFlooded(r)
	} else if n := c.rejected.Load() + 1; !c.rejected.CompareAndSwap(n-1, n) {
		c.rejectContended(r)
	} else if n%lookEvery == 0 {
		spun()
	}
	return r.err
}

// rejectFlooded counts a rejection of a flooded key on its stripes.
//
//go:noinline
func (c *Cell) rejectFlooded(r *rejecting) {
	var n uint64 // grows by one per rejection: a stripe's count
	if sp := r.stripes.Load(); sp != nil {
		n = sp[stripe()].n.Add(1)
	} else {
		n = c.rejected.Add(1)
	}
	if n%lookEvery == 0 {
		spun()
	}
}

// rejectContended counts a rejection that lost the count's line to
// another core; after contendedAt such losses in an open period the key
// moves onto stripes (256 bytes, for the keys callers flood).
//
//go:noinline
func (c *Cell) rejectContended(r *rejecting) {
	if n := c.rejected.Add(1); n%lookEvery == 0 {
		spun()
	}
	if r.contended.Add(1) == contendedAt {
		r.stripes.CompareAndSwap(nil, new(stripes))
		c.flags.Or(flagFlood)
	}
}

// CountOverloaded counts a call refused because MaxInFlight were in flight.
func (c *Cell) CountOverloaded() { c.overloaded.Add(1) }

// callerCounts are the calls a key's callers answered themselves since
// its window started: rejected (on the Cell, and the stripes the window
// knows of) and overloaded. Only the breaker calls it, in its turns.
func (c *Cell) callerCounts(w *statsWindow) (rej, ovl uint64) {
	if w != nil {
		c.learnStripes(w)
		for _, sp := range w.spills {
			rej += sp.total()
		}
	}
	return rej + c.rejected.Load(), c.overloaded.Load()
}

// learnStripes adds the current open period's stripes, if new, to those
// the window counts.
func (c *Cell) learnStripes(w *statsWindow) {
	if r := c.rejection.Load(); r != nil {
		if sp := r.stripes.Load(); sp != nil && !slices.Contains(w.spills, sp) {
			w.spills = append(w.spills, sp)
		}
	}
}

// publishRejecting installs the error of a new open period (nil: the
// circuit no longer rejects). A flooded key's stripes carry over to it.
func (c *Cell) publishRejecting(e *errs.OpenError, now time.Time) {
	if old := c.rejection.Load(); old != nil {
		if s := c.stats.Load(); s != nil || old.stripes.Load() != nil {
			_, w := c.window(now)
			c.learnStripes(w) // before it is gone
		}
	}
	if e == nil {
		c.rejection.Store(nil)
		return
	}
	r := &rejecting{err: e}
	if s := c.stats.Load(); s != nil && s.win != nil && len(s.win.spills) > 0 {
		r.stripes.Store(s.win.spills[len(s.win.spills)-1])
	}
	c.rejection.Store(r)
}

// callerSeen reports whether the callers counted anything a key with no
// window has not seen.
func (c *Cell) callerSeen() bool {
	if c.rejected.Load() != 0 || c.overloaded.Load() != 0 {
		return true
	}
	r := c.rejection.Load()
	return r != nil && r.stripes.Load() != nil
}

// resetCallerCounts zeroes the callers' counts of a key with no window:
// closed, nothing in flight, nobody counting. It returns what they held.
func (c *Cell) resetCallerCounts(w *statsWindow) (rej, ovl uint64) {
	if w != nil {
		for _, sp := range w.spills {
			for i := range sp {
				rej += sp[i].n.Swap(0)
			}
		}
		w.spills = nil
	}
	c.flags.And(^uint32(flagFlood))
	return rej + c.rejected.Swap(0), c.overloaded.Swap(0)
}
