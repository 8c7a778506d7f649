package state

import (
	"math"
	"time"
)

// window records recent outcomes for a failure-rate policy, sized to it: a
// circuit without a failure-rate policy has none, and one with a window of
// 20 calls keeps 20 bits, not the largest window's.
type window struct {
	// count window: a ring of outcome bits, 1 = failure
	bits  []uint64
	pos   int
	calls int
	fails int
	// time window: a ring of buckets, each the calls of one epoch, counted
	// from origin (the first outcome it recorded)
	buckets []bucket
	origin  time.Time
}

// newWindow returns an empty window for w (a count or a time window).
func newWindow(w Window) *window {
	if w.Count() {
		return &window{bits: make([]uint64, (w.Size+63)/64)}
	}
	return &window{buckets: make([]bucket, w.Buckets)}
}

// clone returns a copy of win that shares nothing with it.
func (win *window) clone() *window {
	if win == nil {
		return nil
	}
	c := *win
	c.bits = append([]uint64(nil), win.bits...)
	c.buckets = append([]bucket(nil), win.buckets...)
	return &c
}

type bucket struct {
	epoch        int64
	calls, fails int32
}

// MaxBucketCalls is the most calls one bucket of a time window counts; more
// in one bucket's time are not counted (a window's MinCalls beyond what its
// buckets can hold could never be reached, and is refused).
const MaxBucketCalls = math.MaxInt32

// record adds one outcome at now under w's policy.
func (win *window) record(w Window, failed bool, now time.Time) {
	switch {
	case w.Count():
		win.recordCount(w.Size, failed)
	case w.Timed():
		win.recordTime(w, failed, now)
	}
}

func (win *window) recordCount(size int, failed bool) {
	word, bit := win.pos/64, uint64(1)<<(win.pos%64)
	if win.calls == size {
		if win.bits[word]&bit != 0 {
			win.fails--
		}
	} else {
		win.calls++
	}
	if failed {
		win.bits[word] |= bit
		win.fails++
	} else {
		win.bits[word] &^= bit
	}
	win.pos = (win.pos + 1) % size
}

func (win *window) recordTime(w Window, failed bool, now time.Time) {
	if win.origin.IsZero() {
		win.origin = now
	}
	epoch := win.epochOf(w, now)
	b := &win.buckets[epoch%int64(w.Buckets)]
	if b.epoch != epoch {
		*b = bucket{epoch: epoch}
	}
	if b.calls == MaxBucketCalls {
		return
	}
	b.calls++
	if failed {
		b.fails++
	}
}

// rate returns the calls and failures the window holds at now.
func (win *window) rate(w Window, now time.Time) (calls, fails int) {
	switch {
	case win == nil:
		return 0, 0
	case w.Count():
		return win.calls, win.fails
	case !w.Timed():
		return 0, 0
	}
	epoch := win.epochOf(w, now)
	for i := 0; i < w.Buckets; i++ {
		b := win.buckets[i]
		if b.calls > 0 && b.epoch > epoch-int64(w.Buckets) && b.epoch <= epoch {
			calls += int(b.calls)
			fails += int(b.fails)
		}
	}
	return calls, fails
}

// tripped reports whether the window's failure rate opens the circuit.
func (win *window) tripped(w Window, now time.Time) bool {
	calls, fails := win.rate(w, now)
	// fails/calls, not rate*calls: 0.07*100 is 7.000000000000001 in floating point.
	return calls > 0 && calls >= w.MinCalls && float64(fails)/float64(calls) >= w.FailureRate
}

// epochOf numbers the bucket that holds now, from 1 (an unused bucket's 0
// is never recent), counting buckets of Period/Buckets from the origin on
// the monotonic clock: a call counts while its bucket is one of the newest
// Buckets, always for Period - width, never at Period old.
func (win *window) epochOf(w Window, now time.Time) int64 {
	width := int64(w.Period) / int64(w.Buckets)
	if width < 1 {
		width = 1
	}
	d := int64(now.Sub(win.origin))
	if d < 0 {
		d = 0 // before the origin (a caller's clock): the first bucket
	}
	return d/width + 1
}
