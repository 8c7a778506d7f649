package actor

import (
	"sync"
	"time"
	"unsafe"
)

// keyStats are a key's statistics, the breaker's alone, touched in its
// turns (a crash hands them on with the Cell; passivation drops them). A
// key that went quiet keeps its totals alone: 64 bytes. A busy key's
// keyStats and window are one allocation (busyStats), so that counting a
// call of a key whose memory is cold in the caches reads one place, not
// four. The callers' own counts are the Cell's (callercounts.go).
type keyStats struct {
	// total is what the window no longer holds: the counts since the
	// breaker started are total and every bucket's (see totals). A call
	// counts in its bucket alone, so that counting it reads no more of a
	// key cold in the caches than its window's first line and its bucket.
	total [nTallies]uint64
	win   *statsWindow // nil until a call ends, and again once the key is quiet for a window
}

// busyStats are the statistics of a key with a window.
type busyStats struct {
	keyStats
	window statsWindow
}

// statsWindow is the rolling window: a ring of buckets, each the calls of
// one epoch (statsWidth of the breaker's monotonic clock since origin), and
// what the breaker keeps while the key is busy. What every call reads
// comes first, on the cache line after the keyStats (see Cell.window).
type statsWindow struct {
	// the callers' counts folded in so far (see cumulative), and the epoch
	// of that fold
	seenRejected, seenOverloaded uint64
	seenEpoch                    int64
	origin                       mono // the clock's start: epoch 1 begins here
	// spills are the stripes the key's rejections counted on while it was
	// flooded (one, but for a race of two callers).
	spills  []*stripes
	buckets [StatsBuckets]statsBucket
	// ticket is the breaker's drain check in the idle timers' heap.
	ticket *ticket
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
	*b = busyStats{window: statsWindow{origin: monoOf(now), seenEpoch: 1}}
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

type statsBucket struct {
	epoch int64 // 0: unused
	n     [nTallies]uint32
	nLat  uint32
	max   time.Duration
	lat   sparseBins // the latencies that landed in it: in few, or on the heap
	few   [4]uint64
}

// epoch numbers the bucket that holds now; epochs start at 1 so an unused
// bucket (epoch 0) is never taken for a recent one. Durations between
// time.Now readings use the monotonic clock: a wall clock set back moves
// nothing.
func (w *statsWindow) epoch(now time.Time) int64 { return epochAt(w.origin, now) }

// epochAt is the epoch of now in a window that began at origin.
func epochAt(origin mono, now time.Time) int64 {
	d := monoOf(now).sub(origin)
	if d < 0 {
		d = 0
	}
	return int64(d/statsWidth) + 1
}

// bucket is the window's bucket for epoch e, emptied if it held an older
// one, whose counts go to the totals.
func (s *keyStats) bucket(w *statsWindow, e int64) *statsBucket {
	b := &w.buckets[e%StatsBuckets]
	if b.lat == nil {
		b.lat = b.few[:0]
	}
	if b.epoch != e {
		for t := range b.n {
			s.total[t] += uint64(b.n[t])
		}
		*b = statsBucket{epoch: e, lat: b.lat[:0]} // its bins' memory serves again
	}
	return b
}

// totals are the key's counts since its breaker started: those the window
// let go of and those it holds.
func (s *keyStats) totals() [nTallies]uint64 {
	t := s.total
	if w := s.win; w != nil {
		for i := range w.buckets {
			for k, n := range w.buckets[i].n {
				t[k] += uint64(n)
			}
		}
	}
	return t
}

// record counts one call of kind t at now; d is its latency if the target
// ran it (measured), else ignored. It returns how many calls of kind t
// the epoch's bucket holds now.
func (s *keyStats) record(w *statsWindow, t tally, now time.Time, d time.Duration, measured bool, c *Cell) uint32 {
	e := w.epoch(now)
	s.fold(w, e, c)
	if l := c.hot.Load(); l != nil {
		l.take(s, w, e)
	}
	b := s.bucket(w, e)
	if b.n[t] < ^uint32(0) {
		b.n[t]++
	} else {
		s.total[t]++ // a bucket full up: the totals keep counting
	}
	if measured {
		if b.nLat < ^uint32(0) {
			b.lat.add(latBin(d))
			b.nLat++
		}
		b.max = max(b.max, d)
	}
	return b.n[t]
}

// fold moves the callers' counts since the last fold into the window,
// spread evenly over the epochs since then (a breaker takes no turn while
// its callers fail fast, so when each came is not known finer than that).
func (s *keyStats) fold(w *statsWindow, e int64, c *Cell) {
	rej, ovl := c.callerCounts(w)
	dr, do := rej-w.seenRejected, ovl-w.seenOverloaded
	w.seenRejected, w.seenOverloaded = rej, ovl
	from := w.seenEpoch
	w.seenEpoch = e
	if dr == 0 && do == 0 {
		return
	}
	span := e - from // epochs from+1 .. e share the counts
	if span < 1 {
		span = 1
	}
	// What the buckets do not take — epochs older than the window, a
	// bucket full up — goes to the totals.
	s.total[tRejected] += dr
	s.total[tOverloaded] += do
	for k := int64(0); k < span && k < StatsBuckets; k++ {
		b := s.bucket(w, e-k)
		r, o := dr/uint64(span), do/uint64(span)
		if k == 0 { // the rounding's remainder goes to the newest
			r += dr % uint64(span)
			o += do % uint64(span)
		}
		s.total[tRejected] -= addSat(&b.n[tRejected], r)
		s.total[tOverloaded] -= addSat(&b.n[tOverloaded], o)
	}
}

// addSat adds n to *a, up to its largest value, and returns what it added.
func addSat(a *uint32, n uint64) uint64 {
	room := uint64(^uint32(0)) - uint64(*a)
	n = min(n, room)
	*a += uint32(n)
	return n
}

// quiet reports whether no call ended within the window at now.
func (s *keyStats) quiet(now time.Time, c *Cell) bool {
	w := s.win
	if w == nil {
		return true
	}
	e := w.epoch(now)
	s.fold(w, e, c)
	busy := false
	if l := c.hot.Load(); l != nil {
		l.take(s, w, e)
		l.live(func(int64, *hotSlot) { busy = true })
	}
	for i := range w.buckets {
		if b := &w.buckets[i]; b.epoch > e-StatsBuckets && b.epoch <= e {
			return false
		}
	}
	return !busy
}

// drop gives back the window of a quiet key, keeping its totals: the
// callers' counts start again from zero, so a new window starts from none
// seen (what came in since the last fold goes to the totals).
func (s *keyStats) drop(c *Cell) {
	w := s.win
	if w == nil {
		return
	}
	c.endHot(s, w, time.Now())
	rej, ovl := c.resetCallerCounts(w)    // (closed: nobody is rejected meanwhile)
	quiet := &keyStats{total: s.totals()} // the busy allocation goes
	quiet.total[tRejected] += rej - w.seenRejected
	quiet.total[tOverloaded] += ovl - w.seenOverloaded
	c.setStats(quiet)
	s.release()
}

// unseen reports whether the callers counted calls not yet folded.
func (s *keyStats) unseen(c *Cell) bool {
	if w := s.win; w != nil {
		rej, ovl := c.callerCounts(w)
		return rej != w.seenRejected || ovl != w.seenOverloaded
	}
	return c.callerSeen()
}

// report returns the statistics at now.
func (s *keyStats) report(now time.Time, c *Cell) Stats {
	var st Stats
	var hot *hotLane
	if s.win != nil || s.unseen(c) {
		var w *statsWindow
		s, w = c.window(now)
		e := w.epoch(now)
		s.fold(w, e, c)
		if l := c.hot.Load(); l != nil {
			l.take(s, w, e)
			hot = l
		}
		// The window is the newest StatsBuckets epochs, the current one partly.
		st.Window = monoOf(now).sub(w.origin)
		if e > StatsBuckets {
			st.Window -= time.Duration(e-StatsBuckets) * statsWidth
		}
		var bins latencyBins
		var n uint64
		for i := range w.buckets {
			b := &w.buckets[i]
			if b.epoch <= e-StatsBuckets || b.epoch > e {
				continue
			}
			for t := tally(0); t < nTallies; t++ {
				addTally(&st.Recent, t, uint64(b.n[t]))
			}
			if b.nLat > 0 {
				b.lat.addTo(&bins)
				n += uint64(b.nLat)
				st.Latency.Max = max(st.Latency.Max, b.max)
			}
		}
		if hot != nil {
			// The successes still on the workers' shards: the current
			// epoch's, and one a straggler kept from being taken.
			hot.live(func(he int64, sl *hotSlot) {
				k := sl.n.Load()
				addTally(&st.Total, tSuccess, uint64(k))
				if he <= e-StatsBuckets {
					return // older than the window (a straggler's, untaken for that long)
				}
				addTally(&st.Recent, tSuccess, uint64(k))
				for i := range sl.bins {
					bins[i] += sl.bins[i].Load()
				}
				n += uint64(k)
				st.Latency.Max = max(st.Latency.Max, time.Duration(sl.max.Load()))
			})
		}
		st.Latency.Calls = n
		st.Latency.P50 = percentile(&bins, n, 0.50, st.Latency.Max)
		st.Latency.P90 = percentile(&bins, n, 0.90, st.Latency.Max)
		st.Latency.P99 = percentile(&bins, n, 0.99, st.Latency.Max)
	} else {
		st.Window = StatsWindow // a quiet key's: nothing in it
	}
	total := s.totals()
	for t := tally(0); t < nTallies; t++ {
		addTally(&st.Total, t, total[t])
	}
	if secs := st.Window.Seconds(); secs > 0 {
		st.CallsPerSecond = float64(st.Recent.Calls) / secs
		st.FailuresPerSecond = float64(st.Recent.Failures) / secs
		st.RejectedPerSecond = float64(st.Recent.Rejected) / secs
	}
	if v := st.Recent.Successes + st.Recent.Failures; v > 0 {
		st.ErrorPercent = 100 * float64(st.Recent.Failures) / float64(v)
	}
	return st
}
