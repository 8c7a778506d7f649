package state

import (
	"math/bits"
	"time"
)

// A latency histogram has quarter-octave bins from 1 µs (2^10 ns) up: bin
// 0 holds what is faster, the last what is slower than 2^36 ns (about
// 69 s). A percentile it reports is within 12.5% (latValue).
const (
	latMinShift = 10
	latOctaves  = 26
	// LatencyBinCount is how many bins a histogram has.
	LatencyBinCount = 2 + latOctaves*4
)

// LatencyBins are a histogram of latencies: how many fell in each bin
// (LatencyBin).
type LatencyBins [LatencyBinCount]uint32

// LatencyBin is the bin of a latency of d.
func LatencyBin(d time.Duration) int {
	if d < 1<<latMinShift {
		return 0
	}
	o := bits.Len64(uint64(d)) - 1 // 2^o <= d < 2^(o+1)
	if o >= latMinShift+latOctaves {
		return LatencyBinCount - 1
	}
	sub := int(uint64(d)>>(o-2)) & 3
	return 1 + (o-latMinShift)*4 + sub
}

// latValue is the middle of bin i, the value a percentile in it reports.
func latValue(i int) time.Duration {
	switch {
	case i == 0:
		return 1 << (latMinShift - 1)
	case i >= LatencyBinCount-1:
		return 1 << (latMinShift + latOctaves)
	}
	o, sub := latMinShift+(i-1)/4, (i-1)%4
	lo := time.Duration(4+sub) << (o - 2)
	return lo + time.Duration(1)<<(o-3)
}

// percentile is the q-th quantile (0 < q <= 1) of the n values h holds,
// capped at slowest, which a quantile in the last bin (no upper edge) is.
func (h *LatencyBins) percentile(n uint64, q float64, slowest time.Duration) time.Duration {
	if n == 0 {
		return 0
	}
	rank := max(uint64(q*float64(n)+0.999999), 1)
	var seen uint64
	for i, c := range h {
		seen += uint64(c)
		if seen < rank {
			continue
		}
		if i == LatencyBinCount-1 {
			return slowest
		}
		return min(latValue(i), slowest)
	}
	return slowest
}

// sparseBins are the bins of a histogram that hold something, each a bin
// number (high 32 bits) and its count, in bin order: a second's latencies
// fall in a few bins, and a bucket should not cost 424 bytes.
type sparseBins []uint64

// add counts n values in bin i.
func (s *sparseBins) add(i int, n uint32) {
	bins := *s
	for j, v := range bins {
		switch bin := int(v >> 32); {
		case bin == i:
			bins[j] += uint64(n)
			return
		case bin > i:
			bins = append(bins, 0)
			copy(bins[j+1:], bins[j:])
			bins[j] = uint64(i)<<32 | uint64(n)
			*s = bins
			return
		}
	}
	*s = append(bins, uint64(i)<<32|uint64(n))
}

// addTo adds the counts to a full histogram.
func (s sparseBins) addTo(h *LatencyBins) {
	for _, v := range s {
		h[v>>32] += uint32(v)
	}
}
