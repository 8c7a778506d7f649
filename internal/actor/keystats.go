package actor

import (
	"sync"
	"time"
	"unsafe"

	"github.com/tripwire-go/tripwire/internal/timers"
	"github.com/tripwire-go/tripwire/state"
)

// keyStats are a key's statistics, touched in its breaker's turns. A quiet
// key keeps its totals alone (64 B); a busy key's keyStats and window are
// one allocation (busyStats): counting a call of a cold key reads its
// window's first line and its bucket. The arithmetic is state.Rolling's.
type keyStats struct {
	total state.Totals // what the window no longer holds
	win   *statsWindow // nil until a call ends, and again once the key is quiet for a window
}

// busyStats are the statistics of a key with a window.
type busyStats struct {
	keyStats
	window statsWindow
}

// statsWindow is the rolling window and what the breaker keeps while the
// key is busy; what every call reads comes first, on the line after the
// keyStats: spills, and the Rolling's first fields.
type statsWindow struct {
	spills []*stripes // the stripes the key's rejections counted on while it was flooded
	state.Rolling
	ticket *timers.Ticket[Mailbox] // the breaker's drain check
	cause  error                   // the last failure, which the OpenError carries if it opened the circuit
}

// window returns the key's statistics and their window, made now if there
// is none; its breaker's.
func (c *Cell) window(now time.Time) (*keyStats, *statsWindow) {
	s := c.stats.Load()
	if c.flags.Load()&flagWindow != 0 {
		// The flag, not s.win: a cold key reads none of its keyStats here.
		return s, &(*busyStats)(unsafe.Pointer(s)).window
	}
	b := busyPool.Get().(*busyStats)
	*b = busyStats{}
	b.window.Start(clock(now))
	if s != nil {
		b.total = s.total
	}
	b.win = &b.window
	c.setStats(&b.keyStats)
	return &b.keyStats, b.win
}

// setStats makes s the key's statistics (flagWindow: with a window); its
// breaker's.
func (c *Cell) setStats(s *keyStats) {
	c.stats.Store(s)
	if s != nil && s.win != nil {
		c.flags.Or(flagWindow)
	} else {
		c.flags.And(^uint32(flagWindow))
	}
}

// busyPool keeps the windows keys let go of for the next that get busy
// (1,200 bytes a wake otherwise).
var busyPool = sync.Pool{New: func() any { return new(busyStats) }}

// release hands the window of s, which its key let go of for good, to
// busyPool; its breaker's.
func (s *keyStats) release() {
	if s == nil || s.win == nil {
		return // no window: a quiet key's keyStats is an allocation of its own
	}
	// A keyStats with a window is the first field of a busyStats (window).
	busyPool.Put((*busyStats)(unsafe.Pointer(s)))
}

// catchUp brings w to now, folding in the callers' counts and taking the
// hot lane's past epochs; it returns now's epoch.
func (s *keyStats) catchUp(w *statsWindow, now time.Time, c *Cell) int64 {
	e := w.Epoch(clock(now))
	rej, ovl := c.callerCounts(w)
	w.Fold(&s.total, e, rej, ovl)
	if l := c.hot.Load(); l != nil {
		l.take(s, w, e)
	}
	return e
}

// record counts a call that ended as t at now (state.Rolling.Count).
func (s *keyStats) record(w *statsWindow, t state.Tally, now time.Time, d time.Duration, measured bool, c *Cell) uint32 {
	e := s.catchUp(w, now, c)
	return w.Count(&s.total, t, e, d, measured)
}

// quiet reports whether no call ended within the window at now.
func (s *keyStats) quiet(now time.Time, c *Cell) bool {
	w := s.win
	if w == nil {
		return true
	}
	e := s.catchUp(w, now, c)
	if l := c.hot.Load(); l != nil {
		busy := false
		l.live(func(int64, *hotSlot) { busy = true })
		if busy {
			return false
		}
	}
	return !w.Active(e)
}

// drop gives back the window of a quiet key, keeping its totals (the
// callers' last counts folded in); the callers count from zero again.
func (s *keyStats) drop(c *Cell) {
	w := s.win
	if w == nil {
		return
	}
	now := time.Now()
	c.endHot(s, w, now)
	rej, ovl := c.resetCallerCounts(w) // (closed: nobody is rejected meanwhile)
	w.Fold(&s.total, w.Epoch(clock(now)), rej, ovl)
	c.setStats(&keyStats{total: w.Totals(s.total)}) // the busy allocation goes
	s.release()
}

// report returns the statistics at now, with the successes a hot lane's
// shards hold that the window has not taken in.
func (s *keyStats) report(now time.Time, c *Cell) state.Stats {
	if s.win == nil && !c.callerSeen() {
		return state.QuietStats(s.total)
	}
	s, w := c.window(now)
	s.catchUp(w, now, c)
	sum := w.Summarize(s.total, clock(now))
	if l := c.hot.Load(); l != nil {
		l.live(func(e int64, sl *hotSlot) {
			var bins state.LatencyBins
			for i := range sl.bins {
				bins[i] = sl.bins[i].Load()
			}
			sum.AddSuccesses(e, sl.n.Load(), &bins, time.Duration(sl.max.Load()))
		})
	}
	return sum.Stats()
}

// failed records err as the key's last failure (nil: the next opening is
// not a failure's, as with ForceOpen).
func (c *Cell) failed(err error) {
	if err != nil {
		_, w := c.window(time.Now())
		w.cause = err
	} else if s := c.stats.Load(); s != nil && s.win != nil {
		s.win.cause = nil
	}
}

// openCause is the key's last failure: what opened an open circuit.
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
