package actor

import (
	"sync"
	"time"
	"unsafe"

	"github.com/tripwire-go/tripwire/internal/timers"
	"github.com/tripwire-go/tripwire/state"
)

// keyStats are a key's statistics, the breaker's alone, touched in its
// turns (a crash hands them on with the Cell; passivation drops them). A
// key that went quiet keeps its totals alone: 64 bytes. A busy key's
// keyStats and window are one allocation (busyStats), so that counting a
// call of a key whose memory is cold in the caches reads one place, not
// four. The arithmetic is state's (state.Rolling); what is here is what
// reads the callers' counts and the hot lane's shards, and the memory.
type keyStats struct {
	// total is what the window no longer holds: a call counts in its
	// bucket alone, so that counting it reads no more of a key cold in the
	// caches than its window's first line and its bucket.
	total state.Totals
	win   *statsWindow // nil until a call ends, and again once the key is quiet for a window
}

// busyStats are the statistics of a key with a window.
type busyStats struct {
	keyStats
	window statsWindow
}

// statsWindow is the rolling window and what the breaker keeps while the
// key is busy. What every call reads comes first, on the cache line after
// the keyStats (see Cell.window): spills, and the Rolling's own first
// fields.
type statsWindow struct {
	// spills are the stripes the key's rejections counted on while it was
	// flooded (one, but for a race of two callers).
	spills []*stripes
	state.Rolling
	// ticket is the breaker's drain check among the registry's timers.
	ticket *timers.Ticket[Mailbox]
	// cause is the last failure: when it opens the circuit, the rejections'
	// OpenError carries it.
	cause error
}

// window returns the key's statistics and their rolling window, made now
// (starting at now) if there is none; only its breaker calls it.
func (c *Cell) window(now time.Time) (*keyStats, *statsWindow) {
	s := c.stats.Load()
	if c.flags.Load()&flagWindow != 0 {
		// The flag, on the Cell's line, and not s.win: a key cold in the
		// caches reads nothing of its keyStats to find its window.
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

// setStats makes s the key's statistics, and flagWindow say whether they
// have a window; only its breaker calls it.
func (c *Cell) setStats(s *keyStats) {
	c.stats.Store(s)
	if s != nil && s.win != nil {
		c.flags.Or(flagWindow)
	} else {
		c.flags.And(^uint32(flagWindow))
	}
}

// busyPool keeps the windows of keys that went quiet or passivated for
// the next keys that get busy: a registry whose keys sleep and wake in turn
// would otherwise allocate and collect 1,200 bytes a wake. (The pool gives
// its memory back to the collector within two cycles.)
var busyPool = sync.Pool{New: func() any { return new(busyStats) }}

// release hands the window of s, which its key has let go of for good (its
// Cell points elsewhere now), to busyPool. Only the key's breaker calls it.
func (s *keyStats) release() {
	if s == nil || s.win == nil {
		return // no window: a quiet key's keyStats is an allocation of its own
	}
	// A keyStats with a window is the first field of a busyStats (window).
	busyPool.Put((*busyStats)(unsafe.Pointer(s)))
}

// catchUp brings the window w to now: the callers' counts folded in, and
// the epochs a hot lane's shards counted before now taken. It returns the
// epoch of now.
func (s *keyStats) catchUp(w *statsWindow, now time.Time, c *Cell) int64 {
	e := w.Epoch(clock(now))
	rej, ovl := c.callerCounts(w)
	w.Fold(&s.total, e, rej, ovl)
	if l := c.hot.Load(); l != nil {
		l.take(s, w, e)
	}
	return e
}

// record counts one call that ended as t at now; d is its latency if
// measured. It returns how many calls that ended as t the epoch's bucket
// holds now.
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

// drop gives back the window of a quiet key, keeping its totals: the
// callers' counts start again from zero, so a new window starts from none
// seen (what came in since the last fold goes to the totals).
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
