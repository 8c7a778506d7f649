package actor

import (
	"math"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/tripwire-go/tripwire/internal/borrowed"
)

// A hot key's successes are counted where they arrive — on the worker that
// ran a function target, on the caller that got an actor target's reply —
// one shard per processor, without a turn of its breaker (Call.Finish): the
// turn would only have counted them and answered, and on a key that both
// cores call it was a third of what a call cost, most of it in moving the
// mailbox's and the statistics' cache lines between the cores. The breaker
// takes what the shards counted into its window (take) when it counts
// anything else or reads its statistics, and before it lets the window go.
//
// A key gets a lane once hotCalls successes of one epoch went through its
// breaker's turns; it keeps it while it has a window. A lane costs about a
// kilobyte a shard, so a quiet key never has one.

// hotShards is the most shards a lane has: more processors share them.
const hotShards = 8

// A slot's epoch: 0, free; above, the epoch its counts are of; or one of
// these.
const (
	slotTaken int64 = -1 // the breaker is taking its counts
	slotDead  int64 = -2 // the lane is gone: nothing counts in it any more
)

// hotLane is a hot key's successes, counted where they arrive.
type hotLane struct {
	origin mono // its window's: epochs number as the window numbers them
	shards []hotShard
}

// hotShard is what the workers of one processor count. Its two slots take
// the epochs by parity, so that a worker counts on while the breaker has not
// yet taken the last epoch's counts.
type hotShard struct {
	ended atomic.Uint32 // the calls its workers ended, since the lane was made
	last  atomic.Int64  // when the last of them ended (a mono)
	slots [2]hotSlot
	_     [(64 - (16+2*unsafe.Sizeof(hotSlot{}))%64) % 64]byte
}

// hotSlot is the successes of one epoch, as its shard's workers count them.
type hotSlot struct {
	epoch   atomic.Int64
	writers atomic.Int32 // workers counting in it now, each pinned to its processor
	n       atomic.Uint32
	max     atomic.Int64 // the slowest, in nanoseconds
	bins    [latBins]atomic.Uint32
	// taking is the epoch of a slot the breaker has taken (slotTaken) but
	// not yet emptied, because a worker was still counting in it; only the
	// breaker touches it.
	taking int64
}

func newHotLane(origin mono) *hotLane {
	l := &hotLane{origin: origin, shards: make([]hotShard, min(borrowed.Processors(), hotShards))}
	for i := range l.shards {
		l.shards[i].last.Store(math.MinInt64) // none yet: a mono may be below zero
	}
	return l
}

// begin readies the slot of this processor's shard for a success that
// ended at now, and pins the caller to its processor until done; it
// reports false, pinning nothing, if that slot still holds an earlier
// epoch the breaker has not taken, or is being taken, or the lane is gone.
func (l *hotLane) begin(now time.Time) (*hotShard, *hotSlot, bool) {
	sh := &l.shards[borrowed.Pin()%len(l.shards)]
	e := epochAt(l.origin, now)
	sl := &sh.slots[e&1]
	// Counted before it reads the epoch: the breaker, which takes the
	// slot before it reads the writers, either sees this worker counting
	// or is seen by it (both atomics: one order for all).
	sl.writers.Add(1)
	if sl.epoch.Load() == 0 {
		sl.epoch.CompareAndSwap(0, e) // or another worker of the shard took it first
	}
	if sl.epoch.Load() != e {
		sl.done()
		return nil, nil, false
	}
	return sh, sl, true
}

// count counts in sl a success that ended at now and took d; between
// begin and done.
func (sh *hotShard) count(sl *hotSlot, now time.Time, d time.Duration) {
	sl.n.Add(1)
	sl.bins[latBin(d)].Add(1)
	raise(&sl.max, int64(d))
	sh.ended.Add(1)
	raise(&sh.last, int64(monoOf(now)))
}

// raise makes *x v if v is greater.
func raise(x *atomic.Int64, v int64) {
	for m := x.Load(); v > m && !x.CompareAndSwap(m, v); m = x.Load() {
	}
}

// done ends what begin started.
func (sl *hotSlot) done() {
	sl.writers.Add(-1)
	borrowed.Unpin()
}

// take moves the counts of every epoch before cur into s's window w, and
// frees their slots; the breaker calls it. It never waits: a slot a worker
// is still counting in (it read the epoch just before the breaker took it)
// is emptied by a later take, and meanwhile its shard's workers of the
// epoch after next hand their successes to the breaker, whose turns take.
func (l *hotLane) take(s *keyStats, w *statsWindow, cur int64) {
	for i := range l.shards {
		for j := range l.shards[i].slots {
			sl := &l.shards[i].slots[j]
			if e := sl.epoch.Load(); e > 0 && e < cur && sl.epoch.CompareAndSwap(e, slotTaken) {
				sl.taking = e
			}
			if sl.epoch.Load() == slotTaken && sl.writers.Load() == 0 {
				s.addHot(w, sl.taking, cur, sl)
				sl.epoch.Store(0)
			}
		}
	}
}

// end moves every count into s's window w, whatever its epoch, and leaves
// no slot that a worker can count in; the lane is no longer the key's. It
// ends the lane of a key gone quiet or idle, whose slots no worker counts
// in but for the moment of a straggler, pinned, which it waits for.
func (l *hotLane) end(s *keyStats, w *statsWindow, cur int64) {
	for i := range l.shards {
		for j := range l.shards[i].slots {
			sl := &l.shards[i].slots[j]
			for {
				e := sl.epoch.Load()
				if e == slotDead || (e == 0 && sl.epoch.CompareAndSwap(0, slotDead)) {
					break
				}
				if e > 0 && sl.epoch.CompareAndSwap(e, slotTaken) {
					sl.taking = e
				}
				if sl.epoch.Load() == slotTaken {
					for n := 0; sl.writers.Load() != 0; n++ {
						if n%1024 == 1023 {
							runtime.Gosched() // its thread is not running: let it
						}
					}
					s.addHot(w, sl.taking, cur, sl)
					sl.epoch.Store(slotDead)
					break
				}
			}
		}
	}
}

// ended is how many calls the lane's workers ended.
func (l *hotLane) ended() uint32 {
	var n uint32
	for i := range l.shards {
		n += l.shards[i].ended.Load()
	}
	return n
}

// lastEnded is when the last call its workers ended did, or about then
// (it serves IdleTimeout, which is not finer).
func (l *hotLane) lastEnded() mono {
	t := int64(math.MinInt64)
	for i := range l.shards {
		t = max(t, l.shards[i].last.Load())
	}
	return mono(t)
}

// live calls fn with each slot holding counts the breaker has not taken
// into its window, and their epoch: the current epoch's, mostly, and one
// taken while a straggler still counted in it. Only the breaker calls it.
func (l *hotLane) live(fn func(e int64, sl *hotSlot)) {
	for i := range l.shards {
		for j := range l.shards[i].slots {
			sl := &l.shards[i].slots[j]
			switch e := sl.epoch.Load(); {
			case e > 0:
				fn(e, sl)
			case e == slotTaken:
				fn(sl.taking, sl)
			}
		}
	}
}

// addHot adds the counts of sl, taken, of epoch e, to the window's bucket
// for e, or to the totals if the window no longer holds e (at cur), and
// empties sl.
func (s *keyStats) addHot(w *statsWindow, e, cur int64, sl *hotSlot) {
	n := sl.n.Swap(0)
	maxD := time.Duration(sl.max.Swap(0))
	var bins latencyBins
	for i := range sl.bins {
		bins[i] = sl.bins[i].Swap(0)
	}
	if e <= cur-StatsBuckets || w.buckets[e%StatsBuckets].epoch > e {
		s.total[tSuccess] += uint64(n)
		return
	}
	b := s.bucket(w, e)
	s.total[tSuccess] += uint64(n) - addSat(&b.n[tSuccess], uint64(n))
	if b.nLat > ^uint32(0)-n {
		return // a bucket full up: its latencies stop there, as record's do
	}
	for i, k := range bins {
		if k > 0 {
			b.lat.addN(i, k)
		}
	}
	b.nLat += n
	b.max = max(b.max, maxD)
}

// endHot ends the key's lane, if it has one, moving its counts into s's
// window w at now and its ended calls into ended; only its breaker calls
// it.
func (c *Cell) endHot(s *keyStats, w *statsWindow, now time.Time) {
	l := c.hot.Load()
	if l == nil {
		return
	}
	c.hot.Store(nil)
	l.end(s, w, w.epoch(now))
	c.ended += l.ended()
}

// hotEnded is how many calls the workers of the key's lane ended.
func (c *Cell) hotEnded() uint32 {
	if l := c.hot.Load(); l != nil {
		return l.ended()
	}
	return 0
}
