package bench

import (
	"context"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// setupHeader returns a registry with keys "sender" and "header": closed
// breakers in front of one local echo actor, whose asks carry their
// deadline in their sender (the default), and in a DeadlineHeader too
// (WithDeadlineHeader).
func setupHeader(tb testing.TB) *tripwire.Registry {
	sys := testkit.NewSystem(tb)
	pid := spawnEcho(tb, sys)
	reg := testkit.Start(tb, sys)
	testkit.Register(tb, reg, "sender", tripwire.ActorTarget(pid), tripwire.Settings{CallTimeout: callTimeout})
	testkit.Register(tb, reg, "header", tripwire.WithDeadlineHeader(tripwire.ActorTarget(pid)),
		tripwire.Settings{CallTimeout: callTimeout})
	return reg
}

// BenchmarkHeaderInterleaved: Call to one echo actor through a breaker
// whose asks carry their deadline in their sender alone and through one
// WithDeadlineHeader, alternating every 64 calls; the ratio is the
// header's time over the sender's. Their bytes per call: BenchmarkHeader
// against BenchmarkTripwireClosedActor.
func BenchmarkHeaderInterleaved(b *testing.B) {
	reg := setupHeader(b)
	ctx := context.Background()
	var took [2]time.Duration
	for b.Loop() {
		for side, key := range []string{"sender", "header"} {
			start := time.Now()
			for range interleave {
				v, err := reg.Call(ctx, key, msg)
				check(b, v, err)
			}
			took[side] += time.Since(start)
		}
	}
	calls := float64(b.N * interleave)
	b.ReportMetric(float64(took[0].Nanoseconds())/calls, "sender-ns/call")
	b.ReportMetric(float64(took[1].Nanoseconds())/calls, "header-ns/call")
	b.ReportMetric(float64(took[1])/float64(took[0]), "ratio")
}

// BenchmarkHeader is BenchmarkTripwireClosedActor WithDeadlineHeader.
func BenchmarkHeader(b *testing.B) {
	reg := setupHeader(b)
	ctx := context.Background()
	for b.Loop() {
		v, err := reg.Call(ctx, "header", msg)
		check(b, v, err)
	}
}
