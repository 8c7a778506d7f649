package bench

import (
	"context"
	"testing"
	"time"
)

// interleave is how many calls each side makes in a row before the other
// side's turn: long enough that switching costs nothing measurable, short
// enough (well under a millisecond of calls) that both sides see the same
// machine.
const interleave = 64

// BenchmarkActorPathInterleaved: Call through a closed breaker and a plain
// RequestFuture to the same echo actor, alternating every 64 calls. Separate
// benchmarks run a minute or more apart on a shared machine, where load
// drifts by more than the difference being measured; here both sides share
// every moment. One op is 64 calls of each; the metrics are each side's
// cost per call and their ratio (issue 15's target: at most 0.8).
func BenchmarkActorPathInterleaved(b *testing.B) {
	sys, pid, reg := echoKey(b)
	ctx := context.Background()
	var viaTripwire, viaFuture time.Duration
	for b.Loop() {
		start := time.Now()
		for range interleave {
			v, err := reg.Call(ctx, "echo", msg)
			check(b, v, err)
		}
		mid := time.Now()
		for range interleave {
			v, err := ask(sys, pid)
			check(b, v, err)
		}
		viaTripwire += mid.Sub(start)
		viaFuture += time.Since(mid)
	}
	calls := float64(b.N * interleave)
	b.ReportMetric(float64(viaTripwire.Nanoseconds())/calls, "tripwire-ns/call")
	b.ReportMetric(float64(viaFuture.Nanoseconds())/calls, "future-ns/call")
	b.ReportMetric(float64(viaTripwire)/float64(viaFuture), "ratio")
}
