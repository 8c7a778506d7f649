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
