package state

import "time"

// statsWidth is the width of a bucket of the statistics' rolling window.
const statsWidth = StatsWindow / StatsBuckets

// Rolling is the rolling window of a key's statistics: StatsBuckets
// buckets, each the calls of one epoch (StatsEpoch), beside the Totals its
// keeper holds, which get what the window lets go of. It is not safe for
// concurrent use, and not to be copied (a bucket's first bins are in it).
// Its instants are durations on its keeper's monotonic clock since an
// origin of the keeper's choosing: 8 bytes where a time.Time takes 24.
type Rolling struct {
	// The callers' counts folded so far (Fold) and that fold's epoch: with
	// origin, what every call reads, ahead of the buckets.
	seenRejected, seenOverloaded uint64
	seenEpoch                    int64
	origin                       time.Duration // epoch 1 begins here
	buckets                      [StatsBuckets]statsBucket
}

// statsBucket is the calls of one epoch.
type statsBucket struct {
	epoch int64 // 0: unused
	n     [Tallies]uint32
	nLat  uint32
	max   time.Duration
	lat   sparseBins // the latencies that landed in it: in few, or on the heap
	few   [4]uint64
}

// StatsEpoch numbers the bucket of a window begun at origin that holds
// now, from 1 (an unused bucket's 0 is never recent; before origin is 1).
func StatsEpoch(origin, now time.Duration) int64 {
	return int64(max(now-origin, 0)/statsWidth) + 1
}

// Start empties r for a window that begins at now.
func (r *Rolling) Start(now time.Duration) { *r = Rolling{origin: now, seenEpoch: 1} }

// Origin is when the window began.
func (r *Rolling) Origin() time.Duration { return r.origin }

// Epoch is the epoch of now in the window.
func (r *Rolling) Epoch(now time.Duration) int64 { return StatsEpoch(r.origin, now) }

// bucket is the bucket of epoch e, emptied if it held an older epoch,
// whose counts go to total.
func (r *Rolling) bucket(total *Totals, e int64) *statsBucket {
	b := &r.buckets[e%StatsBuckets]
	if b.lat == nil {
		b.lat = b.few[:0]
	}
	if b.epoch != e {
		for t := range b.n {
			total[t] += uint64(b.n[t])
		}
		*b = statsBucket{epoch: e, lat: b.lat[:0]} // its bins' memory serves again
	}
	return b
}

// Count counts a call that ended as t in epoch e (and its latency d if
// measured); it returns how many such calls e's bucket holds.
func (r *Rolling) Count(total *Totals, t Tally, e int64, d time.Duration, measured bool) uint32 {
	b := r.bucket(total, e)
	if b.n[t] < ^uint32(0) {
		b.n[t]++
	} else {
		total[t]++
	}
	if measured {
		if b.nLat < ^uint32(0) {
			b.lat.add(LatencyBin(d), 1)
			b.nLat++
		}
		b.max = max(b.max, d)
	}
	return b.n[t]
}

// Fold takes in at epoch e the calls a key's callers answered themselves
// (rejected, overloaded: their counts since the window began) that it has
// not seen, spread evenly over the epochs since the last fold (when each
// came is not known finer), the remainder in the newest; what the buckets
// do not take goes to total.
func (r *Rolling) Fold(total *Totals, e int64, rejected, overloaded uint64) {
	dr, do := rejected-r.seenRejected, overloaded-r.seenOverloaded
	r.seenRejected, r.seenOverloaded = rejected, overloaded
	from := r.seenEpoch
	r.seenEpoch = e
	if dr == 0 && do == 0 {
		return
	}
	span := uint64(max(e-from, 1)) // epochs from+1 .. e share the counts
	total[TallyRejected] += dr
	total[TallyOverloaded] += do
	for k := range min(span, StatsBuckets) {
		b := r.bucket(total, e-int64(k))
		rej, ovl := dr/span, do/span
		if k == 0 {
			rej, ovl = rej+dr%span, ovl+do%span
		}
		total[TallyRejected] -= addSat(&b.n[TallyRejected], rej)
		total[TallyOverloaded] -= addSat(&b.n[TallyOverloaded], ovl)
	}
}

// addSat adds n to *a, up to its largest value, and returns what it added.
func addSat(a *uint32, n uint64) uint64 {
	n = min(n, uint64(^uint32(0)-*a))
	*a += uint32(n)
	return n
}

// AddSuccesses takes in n successes of epoch e counted outside the window
// (a hot key's workers'), with their latencies and the slowest: into e's
// bucket, or total if the window at epoch cur no longer holds e.
func (r *Rolling) AddSuccesses(total *Totals, e, cur int64, n uint32, bins *LatencyBins, slowest time.Duration) {
	if e <= cur-StatsBuckets || r.buckets[e%StatsBuckets].epoch > e {
		total[TallySuccess] += uint64(n)
		return
	}
	b := r.bucket(total, e)
	total[TallySuccess] += uint64(n) - addSat(&b.n[TallySuccess], uint64(n))
	if b.nLat > ^uint32(0)-n {
		return
	}
	for i, k := range bins {
		if k > 0 {
			b.lat.add(i, k)
		}
	}
	b.nLat += n
	b.max = max(b.max, slowest)
}

// Active reports whether the window holds a call at epoch e.
func (r *Rolling) Active(e int64) bool {
	for i := range r.buckets {
		if r.buckets[i].in(e) {
			return true
		}
	}
	return false
}

// in reports whether b is used and one of the newest epochs at epoch e.
func (b *statsBucket) in(e int64) bool {
	return b.epoch > max(e-StatsBuckets, 0) && b.epoch <= e
}

// Totals are the counts since the keeper started: total and the window's.
func (r *Rolling) Totals(total Totals) Totals {
	for i := range r.buckets {
		for t, n := range r.buckets[i].n {
			total[t] += uint64(n)
		}
	}
	return total
}
