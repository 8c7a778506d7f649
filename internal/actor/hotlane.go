package actor

import (
	"math"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/tripwire-go/tripwire/internal/borrowed"
	"github.com/tripwire-go/tripwire/internal/hook"
	"github.com/tripwire-go/tripwire/state"
)

// A hot key's successes are counted where they arrive, one shard per
// processor, without a turn of its breaker (Call.Finish: that turn was a
// third of a call's cost on a key both cores call). The breaker takes the
// shards' counts into its window (take) when it counts anything else,
// reports, or lets its window go. A key gets a lane (about a kilobyte a
// shard) after hotCalls successes in one epoch, and keeps it with its window.

// hotShards is the most shards a lane has: more processors share them.
const hotShards = 8

// A slot's epoch: 0, free; above, its counts'; or one of these.
const (
	slotTaken int64 = -1 // the breaker is taking its counts
	slotDead  int64 = -2 // the lane is gone: nothing counts in it any more
)

// hotLane is a hot key's successes, counted where they arrive.
type hotLane struct {
	origin time.Duration // its window's: epochs number as the window numbers them
	shards []hotShard
}

// hotShard is what one processor's workers count, in two slots taking the
// epochs by parity (a worker counts on before the last epoch is taken).
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
	bins    [state.LatencyBinCount]atomic.Uint32
	// taking is the epoch of a slot the breaker took (slotTaken) but could
	// not empty yet, a worker counting in it; the breaker's alone.
	taking int64
}

func newHotLane(origin time.Duration) *hotLane {
	l := &hotLane{origin: origin, shards: make([]hotShard, min(borrowed.Processors(), hotShards))}
	for i := range l.shards {
		l.shards[i].last.Store(math.MinInt64) // none yet: a mono may be below zero
	}
	return l
}

// begin readies this processor's slot for a success that ended at now,
// pinned until done; false, unpinned, if the slot is not free for now.
func (l *hotLane) begin(now time.Duration) (*hotShard, *hotSlot, bool) {
	sh := &l.shards[borrowed.Pin()%len(l.shards)]
	e := state.StatsEpoch(l.origin, now)
	sl := &sh.slots[e&1]
	// Counted before the epoch is read: the breaker, which takes the slot
	// before it reads the writers, sees this worker or is seen by it.
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
func (sh *hotShard) count(sl *hotSlot, now mono, d time.Duration) {
	sl.n.Add(1)
	sl.bins[state.LatencyBin(d)].Add(1)
	raise(&sl.max, int64(d))
	sh.ended.Add(1)
	raise(&sh.last, int64(now))
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

// take moves the counts of every epoch before cur into s's window w and
// frees their slots, in the breaker's turn. It never waits: a slot a worker
// still counts in is emptied by a later take (meanwhile that shard's
// workers hand their successes to the breaker).
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

// end moves every count into s's window w, whatever its epoch, and kills
// every slot: the lane of a key gone quiet or idle, which no worker counts
// in but a pinned straggler for a moment, whom it waits for.
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

// lastEnded is about when the last call its workers ended did (for
// IdleTimeout, which is not finer).
func (l *hotLane) lastEnded() mono {
	t := int64(math.MinInt64)
	for i := range l.shards {
		t = max(t, l.shards[i].last.Load())
	}
	return mono(t)
}

// live calls fn, in the breaker's turn, with each slot whose counts the
// window has not taken, and their epoch (the current one's, mostly).
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

// addHot takes the counts of sl, taken, of epoch e, into s's window w at
// epoch cur (state.Rolling.AddSuccesses), and empties sl.
func (s *keyStats) addHot(w *statsWindow, e, cur int64, sl *hotSlot) {
	n := sl.n.Swap(0)
	slowest := time.Duration(sl.max.Swap(0))
	var bins state.LatencyBins
	for i := range sl.bins {
		bins[i] = sl.bins[i].Swap(0)
	}
	w.AddSuccesses(&s.total, e, cur, n, &bins, slowest)
}

// endHot ends the key's lane, if any, in its breaker's turn: its counts go
// into s's window w at now, its ended calls into ended.
func (c *Cell) endHot(s *keyStats, w *statsWindow, now time.Time) {
	l := c.hot.Load()
	if l == nil {
		return
	}
	c.hot.Store(nil)
	l.end(s, w, w.Epoch(clock(now)))
	c.ended += l.ended()
}

// hotEnded is how many calls the workers of the key's lane ended.
func (c *Cell) hotEnded() uint32 {
	if l := c.hot.Load(); l != nil {
		return l.ended()
	}
	return 0
}

// hotCalls is how many successes through a key's breaker in one epoch (a
// tenth of the window) make the key hot. Tests turn it down before they
// start a registry (internal/testkit.HotCalls).
var hotCalls uint32 = defaultHotCalls

const defaultHotCalls = 1000

func init() {
	hook.HotCalls = func(n uint32) (restore func()) {
		hotCalls = n
		return func() { hotCalls = defaultHotCalls }
	}
}
