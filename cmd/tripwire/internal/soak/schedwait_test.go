package soak

import (
	"math"
	"runtime/metrics"
	"testing"
	"time"
)

func TestSchedWaitsCountsWhatTheRunAddedOverTheSlack(t *testing.T) {
	buckets := []float64{math.Inf(-1), 0.001, 0.010, 0.050, 0.100, math.Inf(1)}
	before := &metrics.Float64Histogram{Counts: []uint64{5, 7, 1, 2, 0}, Buckets: buckets}
	after := &metrics.Float64Histogram{Counts: []uint64{9, 7, 4, 5, 1}, Buckets: buckets}
	got := schedWaitsBetween(before, after, 50*time.Millisecond)
	want := SchedWaits{Over: 3 + 1, Longest: 100 * time.Millisecond}
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if got := schedWaitsBetween(before, before, 50*time.Millisecond); got != (SchedWaits{}) {
		t.Fatalf("nothing added: got %+v", got)
	}
	if got := schedWaitsBetween(nil, after, 50*time.Millisecond); got != (SchedWaits{}) {
		t.Fatalf("no histogram before: got %+v", got)
	}
}

func TestTheRuntimeHasTheSchedulingLatencies(t *testing.T) {
	if h := schedWaits(); h == nil || len(h.Counts) == 0 {
		t.Fatalf("%s: %v", schedLatencies, h)
	}
}
