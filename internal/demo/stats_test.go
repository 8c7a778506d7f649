package demo

import (
	"fmt"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
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
		{&tripwire.OpenError{Key: "k"}, time.Microsecond},
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
