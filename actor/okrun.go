package actor

import "time"

// okRunBins is how many latency bins a run of successes holds: a busy
// key's latencies within one epoch fall in a few.
const okRunBins = 4

// okRun is a run of successes of one epoch that the window's bucket has not
// taken yet. On a hot key the breaker's turns move from core to core, and
// a success written into its bucket and latency bins on every turn moved
// their lines with it: the run is one line, and the bucket takes it once
// an epoch, or when anything else is counted or read (keyStats.flush). A
// success joins the run only while the callers have counted nothing new
// (their counts fold at every other record), so every count lands in the
// bucket it would have had without it.
type okRun struct {
	epoch int64 // 0: none
	n     uint32
	max   time.Duration
	bins  [okRunBins]uint64 // bin<<32 | count, in no order
}

// add puts a success of epoch e and latency d in the run, unless the run
// is of another epoch or has no room for d's bin.
func (r *okRun) add(e int64, d time.Duration) bool {
	if r.epoch != e && r.epoch != 0 {
		return false
	}
	bin := uint64(latBin(d)) << 32
	for i, v := range r.bins {
		switch {
		case v == 0:
			r.bins[i] = bin | 1
		case v&^0xffffffff == bin && uint32(v) < ^uint32(0):
			r.bins[i]++
		default:
			continue
		}
		r.epoch = e
		r.n++
		r.max = max(r.max, d)
		return true
	}
	return false
}

// flush hands the run of successes to its bucket.
func (s *keyStats) flush(w *statsWindow) {
	r := &w.run
	if r.epoch == 0 {
		return
	}
	b := s.bucket(w, r.epoch) // no later bucket was written since the run began
	s.total[tSuccess] += uint64(r.n) - addSat(&b.n[tSuccess], uint64(r.n))
	for _, v := range r.bins {
		if v == 0 {
			break
		}
		n := min(uint64(uint32(v)), uint64(^uint32(0)-b.nLat))
		b.lat.addN(int(v>>32), uint32(n))
		b.nLat += uint32(n)
	}
	b.max = max(b.max, r.max)
	if w.seenEpoch < r.epoch {
		w.seenEpoch = r.epoch // as the successes' folds would have left it
	}
	*r = okRun{}
}
