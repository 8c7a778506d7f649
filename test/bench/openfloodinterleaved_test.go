package bench

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/tripwire-go/tripwire"
)

// floodCallers and floodTurn: each side of BenchmarkOpenFloodInterleaved
// is floodTurn calls by floodCallers goroutines at once (64 on the 2-core
// machine, as BenchmarkTripwireOpenFlood), about 5 ms of Tripwire's and
// 70 ms of gobreaker's.
const (
	floodCallers = 64
	floodTurn    = 1 << 18
)

// BenchmarkOpenFloodInterleaved is BenchmarkTripwireOpenFlood and
// BenchmarkGobreakerOpenFlood in turn, one flood of each per op: the two
// parallel benchmarks run seconds apart, and on a shared machine a
// neighbour moved one of them 2x between runs of the same binary; here both
// see the same moments. Reported: each side's wall time per call (all
// callers together, goroutine starts included) and their ratio, which is
// not BenchmarkTripwireOpenFlood's ns/op over BenchmarkGobreakerOpenFlood's:
// gobreaker's mutex serves 64 goroutines started at once faster than
// RunParallel's. A flooded key counts its rejections on stripes, one per
// processor; this is their benchmark.
func BenchmarkOpenFloodInterleaved(b *testing.B) {
	reg := setupOpen(b)
	cb := setupGobreakerOpen(b)
	ctx := context.Background()
	req := func() (any, error) { return msg, nil }
	var viaTripwire, viaGobreaker time.Duration
	for b.Loop() {
		viaTripwire += flood(b, func() error {
			if _, err := reg.Call(ctx, "down", msg); !errors.Is(err, tripwire.ErrOpen) {
				return err
			}
			return nil
		})
		viaGobreaker += flood(b, func() error {
			if _, err := cb.Execute(req); !errors.Is(err, gobreaker.ErrOpenState) {
				return err
			}
			return nil
		})
	}
	calls := float64(b.N * floodTurn)
	b.ReportMetric(float64(viaTripwire.Nanoseconds())/calls, "tripwire-ns/call")
	b.ReportMetric(float64(viaGobreaker.Nanoseconds())/calls, "gobreaker-ns/call")
	b.ReportMetric(float64(viaTripwire)/float64(viaGobreaker), "ratio")
}

// flood makes floodTurn calls from floodCallers goroutines at once, each
// of which must be rejected (call returns nil), and returns the wall time.
func flood(b *testing.B, call func() error) time.Duration {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range floodCallers {
		wg.Go(func() {
			<-start
			for range floodTurn / floodCallers {
				if err := call(); err != nil {
					b.Errorf("got %v, want the open error", err)
					return
				}
			}
		})
	}
	t0 := time.Now()
	close(start)
	wg.Wait()
	return time.Since(t0)
}
