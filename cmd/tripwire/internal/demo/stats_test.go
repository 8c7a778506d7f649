package demo

import (
	"fmt"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

func TestQuantile(t *testing.T) {
	ms := func(n int) []time.Duration {
		s := make([]time.Duration, n)
		for i := range s {
			s[i] = time.Duration(i+1) * time.Millisecond
		}
		return s
	}
	cases := []struct {
		n    int
		q    float64
		want time.Duration // the nearest rank: the ceil(q·n)-th value
	}{
		{1, 0.5, 1 * time.Millisecond},
		{1, 0.99, 1 * time.Millisecond},
		{2, 0.5, 1 * time.Millisecond},
		{3, 0.5, 2 * time.Millisecond},
		{10, 0.5, 5 * time.Millisecond},
		{10, 0.99, 10 * time.Millisecond},
		{70, 0.99, 70 * time.Millisecond},   // 69.3 ranks up to the 70th
		{100, 0.99, 99 * time.Millisecond},  // 0.99 × 100 is the 99th, not the 100th
		{512, 0.99, 507 * time.Millisecond}, // 506.88
		{512, 0.5, 256 * time.Millisecond},
		{100, 0.07, 7 * time.Millisecond}, // 0.07 × 100 is 7.000000000000001 in binary
	}
	for _, c := range cases {
		// Given n sorted latencies 1ms..n ms; When asked for the q-quantile
		// Then it is the nearest-rank value
		if got := quantile(ms(c.n), c.q); got != c.want {
			t.Errorf("quantile(%d values, %v) = %v, want %v", c.n, c.q, got, c.want)
		}
	}
}

func TestStatsAddClassifies(t *testing.T) {
	// Given one answer of every kind, each with its latency
	var s stats
	answers := []struct {
		err     error
		latency time.Duration
	}{
		{nil, 2 * time.Millisecond},
		{nil, 4 * time.Millisecond},
		{ErrUnavailable, 1 * time.Millisecond},
		{fmt.Errorf("call: %w", tripwire.ErrTargetDown), 3 * time.Millisecond},
		{tripwire.ErrTimeout, 200 * time.Millisecond},
		{tripwire.ErrBreakerRestarted, 5 * time.Millisecond},
		{&state.OpenError{Key: "k"}, time.Microsecond},
		{fmt.Errorf("shed: %w", tripwire.ErrOverloaded), time.Microsecond},
	}
	// When they are added
	for _, a := range answers {
		s.add(a.err, a.latency)
	}
	// Then each is counted by its kind
	c, p50, p99 := s.read()
	want := Counts{Calls: 8, OK: 2, Failed: 2, Timeouts: 1, Rejected: 2, Restarted: 1}
	if c != want {
		t.Fatalf("counts %+v, want %+v", c, want)
	}
	// And the quantiles leave the rejections out: 6 latencies, 1..200 ms
	if p50 != 3*time.Millisecond || p99 != 200*time.Millisecond {
		t.Fatalf("p50 %v p99 %v", p50, p99)
	}
}

func TestStatsQuantilesAreRecent(t *testing.T) {
	// Given more successes than the ring holds, slow ones first
	var s stats
	for range latencyRing {
		s.add(nil, time.Second)
	}
	for range latencyRing {
		s.add(nil, time.Millisecond)
	}
	// When read
	c, p50, p99 := s.read()
	// Then all are counted, but the quantiles describe the recent ones only
	if c.Calls != 2*latencyRing || c.OK != 2*latencyRing || p50 != time.Millisecond || p99 != time.Millisecond {
		t.Fatalf("%+v p50 %v p99 %v", c, p50, p99)
	}
}

func TestStatsEmpty(t *testing.T) {
	// Given no answer, or only rejections
	var s stats
	s.add(tripwire.ErrOpen, 0)
	// Then the quantiles are zero
	if c, p50, p99 := s.read(); c.Rejected != 1 || p50 != 0 || p99 != 0 {
		t.Fatalf("%+v %v %v", c, p50, p99)
	}
}

func TestTheSummaryQuantilesCoverTheWholeRunAndTheLiveOnesTheLastCalls(t *testing.T) {
	// Given a key whose calls timed out at 200ms for a while (an outage),
	// then took 2ms for more calls than the live table keeps
	var s stats
	for range 100 {
		s.add(tripwire.ErrTimeout, 200*time.Millisecond)
	}
	for range 900 {
		s.add(nil, 2*time.Millisecond)
	}
	// When the live and the summary figures are read
	_, liveP50, liveP99 := s.read()
	c, runP50, runP99 := s.readRun()
	// Then the live ones are the last calls', and the summary's hold the outage,
	// each within a bin (2%) above the exact value
	if liveP50 != 2*time.Millisecond || liveP99 != 2*time.Millisecond {
		t.Errorf("live p50 %v p99 %v, want 2ms 2ms", liveP50, liveP99)
	}
	within := func(got, want time.Duration) bool { return got >= want && float64(got) <= float64(want)*runBinRatio }
	if !within(runP50, 2*time.Millisecond) || !within(runP99, 200*time.Millisecond) {
		t.Errorf("run p50 %v p99 %v, want 2ms and 200ms", runP50, runP99)
	}
	if c.Calls != 1000 {
		t.Errorf("counts %+v", c)
	}
}

func TestARunHistogramQuantileIsTheNearestRankWithinABin(t *testing.T) {
	// Given latencies 1ms..1000ms
	var h runHist
	if h.quantile(0.5) != 0 {
		t.Fatal("an empty histogram has a quantile")
	}
	for i := range 1000 {
		h.add(time.Duration(i+1) * time.Millisecond)
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 500 * time.Millisecond}, {0.99, 990 * time.Millisecond}, {0.001, time.Millisecond}, {1, time.Second}} {
		// When a quantile is read; Then it is the exact one, or at most 2% above
		if got := h.quantile(c.q); got < c.want || float64(got) > float64(c.want)*runBinRatio {
			t.Errorf("q %v: %v, want %v (+2%%)", c.q, got, c.want)
		}
	}
	// and a latency past the last bin is in it, not lost
	h.add(100 * time.Hour)
	if got := h.quantile(1); got != edge(runBins-1) {
		t.Errorf("the slowest: %v", got)
	}
}
