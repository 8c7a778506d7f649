package actor

import (
	"testing"
	"time"
)

// sink keeps the clock reads of BenchmarkCallerNowInterleaved from being
// optimised away.
var sink time.Time

// BenchmarkCallerNowInterleaved is Caller.Now against time.Now, alternating
// every 1,024 reads in one benchmark so that both see the same moments:
// each side's ns a read and their ratio (docs/architecture.md, "Mechanisms":
// the cached clock stays while it is cheaper).
func BenchmarkCallerNowInterleaved(b *testing.B) {
	const turn = 1024
	k := NewCaller(nil)
	var cached, plain time.Duration
	for b.Loop() {
		t0 := time.Now()
		for range turn {
			sink = k.Now()
		}
		t1 := time.Now()
		for range turn {
			sink = time.Now()
		}
		cached += t1.Sub(t0)
		plain += time.Since(t1)
	}
	reads := float64(b.N) * turn
	b.ReportMetric(float64(cached.Nanoseconds())/reads, "caller-ns/read")
	b.ReportMetric(float64(plain.Nanoseconds())/reads, "time-ns/read")
	b.ReportMetric(float64(cached)/float64(plain), "ratio")
	b.ReportMetric(0, "ns/op")
}
