package actor

import (
	"sync/atomic"
	"time"
	"unsafe"
)

// fastStripes spread the callers' counts of a key over cache lines, so
// callers flooding an open key on every core do not queue on one.
const fastStripes = 4

// fastCounts are the calls answered without a message — rejected while the
// circuit is open, or overloaded — which only the callers see. They count
// them here; the breaker folds them into its window when it next looks.
type fastCounts [fastStripes]struct {
	rejected   atomic.Uint64
	overloaded atomic.Uint64
	_          [48]byte
}

// stripe picks a stripe for the calling goroutine by where its stack is.
func stripe() int {
	var x byte
	p := uint64(uintptr(unsafe.Pointer(&x)))
	return int((p >> 12) * 0x9E3779B97F4A7C15 >> 62)
}

// totals are the counts of every stripe.
func (f *fastCounts) totals() (rejected, overloaded uint64) {
	for i := range f {
		rejected += f[i].rejected.Load()
		overloaded += f[i].overloaded.Load()
	}
	return rejected, overloaded
}

// CountOverloaded counts a call refused because MaxInFlight were in flight.
func (c *Cell) CountOverloaded() { c.fastCounts()[stripe()].overloaded.Add(1) }

// fastCounts returns the callers' counts, made now if there are none.
func (c *Cell) fastCounts() *fastCounts {
	if f := c.fast.Load(); f != nil {
		return f
	}
	f := new(fastCounts)
	if c.fast.CompareAndSwap(nil, f) {
		return f
	}
	return c.fast.Load()
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
