package demo

import (
	"math"
	"slices"
	"sync"
	"time"

	"github.com/tripwire-go/tripwire/internal/observe"
)

// latencyRing is how many recent latencies each key keeps for the live
// table's quantiles.
const latencyRing = 512

// stats is what callers saw of one key.
type stats struct {
	mu     sync.Mutex
	counts Counts
	ring   [latencyRing]time.Duration
	n      int     // latencies recorded so far
	run    runHist // every latency of the run, for the summary
}

// add records one answer. Rejections are counted but their latency (none:
// they never reach the dependency) is not, so the quantiles describe calls
// that went through.
func (s *stats) add(err error, latency time.Duration) {
	k := observe.KindOf(err)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts.Add(k, 1)
	if k.Label() == observe.Rejected {
		return
	}
	s.ring[s.n%latencyRing] = latency
	s.n++
	s.run.add(latency)
}

// readRun returns the counts and the p50 and p99 of every latency of the
// run, each within a bin's width (runBinRatio) above the exact one.
func (s *stats) readRun() (c Counts, p50, p99 time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts, s.run.quantile(0.50), s.run.quantile(0.99)
}

// read returns the counts and the p50 and p99 of the recent latencies
// (the last latencyRing).
func (s *stats) read() (c Counts, p50, p99 time.Duration) {
	s.mu.Lock()
	c = s.counts
	recent := slices.Clone(s.ring[:min(s.n, latencyRing)])
	s.mu.Unlock()
	if len(recent) == 0 {
		return c, 0, 0
	}
	slices.Sort(recent)
	return c, quantile(recent, 0.50), quantile(recent, 0.99)
}

// quantile of sorted by nearest rank: the smallest value with at least a
// share q of the values at or below it. The epsilon keeps a rank that is
// whole in decimal (0.99 × 100) from rounding up in binary.
func quantile(sorted []time.Duration, q float64) time.Duration {
	rank := int(math.Ceil(q*float64(len(sorted)) - 1e-9))
	return sorted[min(max(rank-1, 0), len(sorted)-1)]
}
