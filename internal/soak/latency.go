package soak

import (
	"math"
	"slices"
	"sync/atomic"
	"time"
)

// latencyRingLen is how many recent latencies each key keeps, while the run is
// watched (Config.Watch), for the quantiles of Live.Stats.
const latencyRingLen = 512

// latencyRing holds the recent latencies of one key's answers. Callers add to
// them concurrently without a lock: each takes the next slot of the ring and
// writes it.
type latencyRing struct {
	n    atomic.Uint64
	ring [latencyRingLen]atomic.Int64 // nanoseconds + 1: 0 is a slot not written yet
}

func (l *latencyRing) add(d time.Duration) {
	i := l.n.Add(1) - 1
	l.ring[i%latencyRingLen].Store(int64(max(d, 0)) + 1)
}

// quantiles returns the p50 and p99 of the latencies kept (0, 0 if none). A
// slot a caller has taken but not written yet holds the latency it replaces,
// or, on the first lap, nothing and is skipped.
func (l *latencyRing) quantiles() (p50, p99 time.Duration) {
	n := min(l.n.Load(), latencyRingLen)
	recent := make([]time.Duration, 0, n)
	for i := range n {
		if v := l.ring[i].Load(); v != 0 {
			recent = append(recent, time.Duration(v-1))
		}
	}
	if len(recent) == 0 {
		return 0, 0
	}
	slices.Sort(recent)
	return nearestRank(recent, 0.50), nearestRank(recent, 0.99)
}

// nearestRank is the q quantile of sorted: the smallest value with at least
// a share q of the values at or below it. The epsilon keeps a rank that is
// whole in decimal (0.99 × 100) from rounding up in binary.
func nearestRank(sorted []time.Duration, q float64) time.Duration {
	rank := int(math.Ceil(q*float64(len(sorted)) - 1e-9))
	return sorted[min(max(rank-1, 0), len(sorted)-1)]
}

// watchLatencies makes the callers keep each key's recent latencies. Only a
// watched run pays for it.
func (lv *live) watchLatencies() { lv.latency = make([]latencyRing, len(lv.perKey)) }

// recordLatency keeps how long an answer on key took, if the run is watched
// and the answer is the breaker's (a call forwarded to the target, timed
// out, cut short by a crash): not an open circuit's refusal, which takes no
// time, nor the caller's own withdrawal.
func (lv *live) recordLatency(key int, o Answer, d time.Duration) {
	if lv.latency == nil || o == Open || o == Canceled {
		return
	}
	lv.latency[key].add(d)
}
