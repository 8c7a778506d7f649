package state

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLatencyBinsReportWithinAnEighth(t *testing.T) {
	for range 100_000 {
		d := time.Duration(rand.Int64N(int64(60 * time.Second)))
		if d < time.Microsecond {
			continue
		}
		v := latValue(LatencyBin(d))
		if diff := float64(v-d) / float64(d); diff > 0.125 || diff < -0.125 {
			t.Fatalf("%v lands in bin %d, reported as %v (%.1f%% off)", d, LatencyBin(d), v, 100*diff)
		}
	}
}

func TestLatencyBinEdges(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want int
	}{
		{0, 0},
		{time.Microsecond - 1, 0}, // below 2^10 ns
		{1 << 10, 1},
		{1<<10 + 1<<8, 2}, // the second quarter of the first octave
		{1<<11 - 1, 4},
		{1 << 11, 5},
		{1<<36 - 1, LatencyBinCount - 2},
		{1 << 36, LatencyBinCount - 1},
		{time.Hour, LatencyBinCount - 1},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, LatencyBin(tt.d), "%v", tt.d)
	}
}

func TestSparseBinsKeepBinOrderAndCounts(t *testing.T) {
	var s sparseBins
	var want LatencyBins
	for range 10_000 {
		i := rand.IntN(LatencyBinCount)
		s.add(i, 1)
		want[i]++
	}
	var got LatencyBins
	s.addTo(&got)
	require.Equal(t, want, got, "sparse bins lost counts")
	for j := 1; j < len(s); j++ {
		require.Less(t, s[j-1]>>32, s[j]>>32, "bins out of order at %d", j)
	}
}

func TestPercentile(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name    string
		lat     []time.Duration // one call each
		q       float64
		slowest time.Duration
		want    time.Duration
	}{
		{"none", nil, 0.5, 0, 0},
		{"one call: its bin's middle", []time.Duration{10 * ms}, 0.5, 10 * ms, latValue(LatencyBin(10 * ms))},
		{"capped by the slowest", []time.Duration{10 * ms}, 0.99, 9 * ms, 9 * ms},
		{"the median of three", []time.Duration{ms, 2 * ms, 400 * ms}, 0.5, 400 * ms, latValue(LatencyBin(2 * ms))},
		{"p99 of a hundred is the 99th", append(repeat(ms, 98), 50*ms, 400*ms), 0.99, 400 * ms, latValue(LatencyBin(50 * ms))},
		// The last bin has no upper edge: a percentile in it is the
		// slowest call, not the bin's lower edge (2^36 ns, about 69 s).
		{"beyond the last bin: the slowest call", append(repeat(100*time.Second, 100), 120*time.Second), 0.5, 120 * time.Second, 120 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h LatencyBins
			for _, d := range tt.lat {
				h[LatencyBin(d)]++
			}
			require.Equal(t, tt.want, h.percentile(uint64(len(tt.lat)), tt.q, tt.slowest))
		})
	}
}

// repeat is n times d.
func repeat(d time.Duration, n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = d
	}
	return out
}
