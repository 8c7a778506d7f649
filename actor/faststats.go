package actor

import (
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/tripwire-go/tripwire/internal/errs"
)

// yieldEvery is how many rejections of a key pass between two in which the
// rejected caller yields its core: a caller that retries ErrOpen in a tight
// loop never blocks, and a thousand of them would keep the goroutines whose
// answers are ready — their calls timed out, their fast failure waiting —
// from running for seconds. One yield in 4096 rejections costs the open
// path nothing measurable (a yield is about 500 ns). With 1,000 such
// callers, each yields after about yieldEvery calls of its own, so every
// goroutine runs within a few tens of milliseconds.
const yieldEvery = 4096

// rejecting is what a rejecting breaker publishes, one per open period: the
// error its callers answer themselves with, and the count of them, on the
// cache line the callers just read. The breaker folds the count into its
// statistics when it next looks.
type rejecting struct {
	err *errs.OpenError
	n   atomic.Uint64
	// spill spreads the count over cache lines once the period has had
	// spillAt rejections: callers flooding one key from every core would
	// otherwise take turns at one line. A key rejected a few times costs
	// no more than the line it is read from.
	spill atomic.Pointer[stripes]
}

// spillAt is how many rejections in one open period make it a flood.
const spillAt = 1 << 14

// stripes are counters a cache line apart.
type stripes [4]struct {
	n atomic.Uint64
	_ [56]byte
}

// stripe picks a stripe for the calling goroutine by where its stack is.
func stripe() int {
	var x byte
	p := uint64(uintptr(unsafe.Pointer(&x)))
	return int((p >> 12) & 3)
}

// yield lets the other goroutines run (out of line: the open path stays
// small enough to inline).
//
//go:noinline
func yield() { runtime.Gosched() }

// spillOver gives the period its stripes.
//
//go:noinline
func (r *rejecting) spillOver() { r.spill.CompareAndSwap(nil, new(stripes)) }

// total is the period's rejections so far.
func (r *rejecting) total() uint64 {
	n := r.n.Load()
	if sp := r.spill.Load(); sp != nil {
		for i := range sp {
			n += sp[i].n.Load()
		}
	}
	return n
}

// Rejection is the error the breaker would answer a call with now — the
// circuit is open, or half-open with all its probes in flight — or nil.
func (c *Cell) Rejection() *errs.OpenError {
	if r := c.rejection.Load(); r != nil {
		return r.err
	}
	return nil
}

// Reject is Rejection for a caller that answers itself with the error: it
// counts the rejection in the key's statistics.
func (c *Cell) Reject() *errs.OpenError {
	r := c.rejection.Load()
	if r == nil {
		return nil
	}
	var n uint64 // grows by one per rejection: the count, or its stripe's
	if sp := r.spill.Load(); sp != nil {
		n = sp[stripe()].n.Add(1)
	} else if n = r.n.Add(1); n == spillAt {
		r.spillOver()
	}
	if n%yieldEvery == 0 {
		yield()
	}
	return r.err
}

// CountOverloaded counts a call refused because MaxInFlight were in flight.
func (c *Cell) CountOverloaded() { c.overloaded.Add(1) }

// callerCounts are where a key's callers count the calls they answer
// themselves: the open period's rejections and the overloaded calls.
type callerCounts struct {
	cur        *rejecting
	overloaded *atomic.Uint64
}

func (c *Cell) callerCounts() callerCounts {
	return callerCounts{cur: c.rejection.Load(), overloaded: &c.overloaded}
}

// retire takes the rejections of an open period that ended into the
// window; late ones (a caller that read the error before the breaker
// replaced it) still count, until the next period ends too.
func (c *Cell) retire(old *rejecting, now time.Time) {
	if old == nil {
		return
	}
	w := c.keyStats().window(now)
	if w.retired != nil {
		w.rejBase += w.retired.total()
	}
	w.retired = old
}

// failed records err as the key's last failure (nil: the next opening is
// not a failure's, as with ForceOpen).
func (c *Cell) failed(err error) {
	if err != nil {
		c.keyStats().window(time.Now()).cause = err
	} else if s := c.stats.Load(); s != nil && s.win != nil {
		s.win.cause = nil
	}
}

// openCause is the key's last failure, which opened the circuit when it
// is open.
func (c *Cell) openCause() error {
	if s := c.stats.Load(); s != nil && s.win != nil {
		return s.win.cause
	}
	return nil
}

// keyStats returns the key's statistics, made now if it has none.
func (c *Cell) keyStats() *keyStats {
	if s := c.stats.Load(); s != nil {
		return s
	}
	s := new(keyStats)
	if c.stats.CompareAndSwap(nil, s) {
		return s
	}
	return c.stats.Load()
}
