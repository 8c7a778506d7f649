package demo

import (
	"math"
	"time"
)

// runHist counts a run's latencies in bins whose edges grow by runBinRatio
// from runBinMin: 2% apart, from a microsecond to past an hour, in 1.8 KB.
type runHist struct {
	bins [runBins]uint32
	n    uint64
}

const (
	runBinRatio = 1.02
	runBinMin   = time.Microsecond
	runBins     = 1100 // runBinMin × 1.02^1100 ≈ 2.8 hours
)

// binOf is the bin of d: the first whose upper edge is at or above it.
func binOf(d time.Duration) int {
	if d <= runBinMin {
		return 0
	}
	b := int(math.Ceil(math.Log(float64(d)/float64(runBinMin)) / math.Log(runBinRatio)))
	return min(b, runBins-1)
}

// edge is bin b's upper edge.
func edge(b int) time.Duration {
	return time.Duration(float64(runBinMin) * math.Pow(runBinRatio, float64(b)))
}

func (h *runHist) add(d time.Duration) {
	h.bins[binOf(d)]++
	h.n++
}

// quantile is the upper edge of the bin that holds the nearest-rank
// quantile q (see quantile), or 0 if nothing was added.
func (h *runHist) quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := uint64(max(math.Ceil(q*float64(h.n)-1e-9), 1))
	var seen uint64
	for b, n := range h.bins {
		if seen += uint64(n); seen >= rank {
			return edge(b)
		}
	}
	return edge(runBins - 1)
}
