package soak

import (
	"context"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

func TestLatencyRingKeepsTheRecentQuantiles(t *testing.T) {
	// Given a ring that has seen 1..100 ms
	var r latencyRing
	for i := 1; i <= 100; i++ {
		r.add(time.Duration(i) * time.Millisecond)
	}
	// Then its p50 and p99 are those of 1..100 ms, by nearest rank
	if p50, p99 := r.quantiles(); p50 != 50*time.Millisecond || p99 != 99*time.Millisecond {
		t.Fatalf("p50 %v, p99 %v", p50, p99)
	}
	// When a full lap of 1 s latencies follows
	for range latencyRingLen {
		r.add(time.Second)
	}
	// Then only those are left
	if p50, p99 := r.quantiles(); p50 != time.Second || p99 != time.Second {
		t.Fatalf("after a lap: p50 %v, p99 %v", p50, p99)
	}
}

func TestLatencyRingSkipsSlotsNotWrittenAndKeepsZero(t *testing.T) {
	// Given an empty ring
	var r latencyRing
	if p50, p99 := r.quantiles(); p50 != 0 || p99 != 0 {
		t.Fatalf("empty: %v %v", p50, p99)
	}
	// When a caller has taken a slot but not written it, and another wrote 0 and 4 ms
	r.n.Add(1)
	r.ring[1].Store(1)
	r.ring[2].Store(int64(4*time.Millisecond) + 1)
	r.n.Add(2)
	// Then the quantiles are of the two written: 0 and 4 ms
	if p50, p99 := r.quantiles(); p50 != 0 || p99 != 4*time.Millisecond {
		t.Fatalf("p50 %v, p99 %v", p50, p99)
	}
}

func TestOnlyAWatchedRunKeepsLatenciesAndNotOfRefusals(t *testing.T) {
	// Given a run's live tallies, not watched
	lv := newLive(1)
	begin := time.Unix(0, 0)
	var c callerTally
	c.answered(lv, 0, nil, begin, begin.Add(time.Millisecond), time.Second, true)
	if lv.latency != nil {
		t.Fatal("an unwatched run keeps latencies")
	}
	// When it is watched and answers of every kind come
	lv.watchLatencies()
	c.answered(lv, 0, nil, begin, begin.Add(3*time.Millisecond), time.Second, true)
	c.answered(lv, 0, tripwire.ErrOpen, begin, begin.Add(7*time.Millisecond), time.Second, true)
	c.answered(lv, 0, context.Canceled, begin, begin.Add(9*time.Millisecond), time.Second, true)
	// Then only the ok answer's latency is kept: an open circuit's refusal
	// and a caller's withdrawal are not the breaker's latency
	if p50, p99 := lv.latency[0].quantiles(); p50 != 3*time.Millisecond || p99 != 3*time.Millisecond || lv.latency[0].n.Load() != 1 {
		t.Fatalf("p50 %v, p99 %v, n %d", p50, p99, lv.latency[0].n.Load())
	}
}
