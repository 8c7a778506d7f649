package bench

import (
	"context"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// setupUndated returns a registry with keys "dated" and "undated": closed
// breakers in front of one echo actor, the second WithoutDeadlineHeader.
func setupUndated(tb testing.TB) *tripwire.Registry {
	sys := testkit.NewSystem(tb)
	pid := spawnEcho(tb, sys)
	reg := testkit.Start(tb, sys)
	testkit.Register(tb, reg, "dated", tripwire.ActorTarget(pid), tripwire.Settings{CallTimeout: callTimeout})
	testkit.Register(tb, reg, "undated", tripwire.WithoutDeadlineHeader(tripwire.ActorTarget(pid)),
		tripwire.Settings{CallTimeout: callTimeout})
	return reg
}

// BenchmarkUndatedInterleaved: Call to one echo actor through a breaker
// whose asks carry the DeadlineHeader and through one WithoutDeadlineHeader,
// alternating every 64 calls; the ratio is undated's time over dated's.
// Their bytes per call: BenchmarkUndated against BenchmarkTripwireClosedActor.
func BenchmarkUndatedInterleaved(b *testing.B) {
	reg := setupUndated(b)
	ctx := context.Background()
	var took [2]time.Duration
	for b.Loop() {
		for side, key := range []string{"dated", "undated"} {
			start := time.Now()
			for range interleave {
				v, err := reg.Call(ctx, key, msg)
				check(b, v, err)
			}
			took[side] += time.Since(start)
		}
	}
	calls := float64(b.N * interleave)
	b.ReportMetric(float64(took[0].Nanoseconds())/calls, "dated-ns/call")
	b.ReportMetric(float64(took[1].Nanoseconds())/calls, "undated-ns/call")
	b.ReportMetric(float64(took[1])/float64(took[0]), "ratio")
}

// BenchmarkUndated is BenchmarkTripwireClosedActor WithoutDeadlineHeader.
func BenchmarkUndated(b *testing.B) {
	reg := setupUndated(b)
	ctx := context.Background()
	for b.Loop() {
		v, err := reg.Call(ctx, "undated", msg)
		check(b, v, err)
	}
}
