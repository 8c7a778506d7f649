package bench

import (
	"context"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/remoting"
)

// setupHeader is echoKey with a second key, "header", in front of the same
// echo actor WithDeadlineHeader: "echo" carries its asks' deadlines in
// their sender (the default), "header" in a DeadlineHeader too.
func setupHeader(b *testing.B) *tripwire.Registry {
	_, pid, reg := echoKey(b)
	testkit.Register(b, reg, "header", remoting.WithDeadlineHeader(tripwire.ActorTarget(pid)),
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
		for side, key := range []string{"echo", "header"} {
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
