package actor

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestLatencyBinsReportWithinAnEighth(t *testing.T) {
	for range 100_000 {
		d := time.Duration(rand.Int64N(int64(60 * time.Second)))
		if d < time.Microsecond {
			continue
		}
		v := latValue(latBin(d))
		if diff := float64(v-d) / float64(d); diff > 0.125 || diff < -0.125 {
			t.Fatalf("%v lands in bin %d, reported as %v (%.1f%% off)", d, latBin(d), v, 100*diff)
		}
	}
	if latBin(0) != 0 || latBin(time.Hour) != latBins-1 {
		t.Fatalf("bins of 0 and 1h: %d and %d", latBin(0), latBin(time.Hour))
	}
}

func TestSparseBinsKeepBinOrderAndCounts(t *testing.T) {
	var s sparseBins
	var want latencyBins
	for range 10_000 {
		i := rand.IntN(latBins)
		s.add(i)
		want[i]++
	}
	var got latencyBins
	s.addTo(&got)
	if got != want {
		t.Fatal("sparse bins lost counts")
	}
	for j := 1; j < len(s); j++ {
		if s[j-1]>>32 >= s[j]>>32 {
			t.Fatalf("bins out of order at %d", j)
		}
	}
}

func TestPercentileIsCappedByMax(t *testing.T) {
	var bins latencyBins
	bins[latBin(10*time.Millisecond)] = 1
	if p := percentile(&bins, 1, 0.99, 9*time.Millisecond); p != 9*time.Millisecond {
		t.Fatalf("p99 %v above the max", p)
	}
}

func TestAPercentileBeyondTheLastBinIsTheSlowestCall(t *testing.T) {
	// Given 100 calls of 100 s and one of 120 s, all past the last bin's
	// lower edge (2^36 ns, about 69 s)
	var bins latencyBins
	bins[latBin(100*time.Second)] = 100
	bins[latBin(120*time.Second)]++
	// Then the median reports the slowest call, not the bin's edge: the
	// last bin has no upper one
	if p := percentile(&bins, 101, 0.5, 120*time.Second); p != 120*time.Second {
		t.Fatalf("p50 %v, want 2m0s", p)
	}
}
