package bench

import (
	"context"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// BenchmarkHandleInterleaved: one caller calling a function that returns
// its message through a typed Handle (Key[*ping, *ping]) and through the
// untyped Registry.Call, alternating every 64 calls. Issue 41's target: the
// Handle within 3% of Call (x-call at most 1.03), with no allocation more.
func BenchmarkHandleInterleaved(b *testing.B) {
	reg := testkit.Start(b, testkit.NewSystem(b))
	typed := func(_ context.Context, p *ping) (*ping, error) { return p, nil }
	testkit.Register(b, reg, "echo", tripwire.Func(typed), tripwire.Settings{CallTimeout: callTimeout})
	h := tripwire.Key[*ping, *ping](reg, "echo")
	ctx := context.Background()
	var viaHandle, viaCall time.Duration
	for b.Loop() {
		t0 := time.Now()
		for range interleave {
			v, err := h.Call(ctx, msg)
			check(b, v, err)
		}
		t1 := time.Now()
		for range interleave {
			v, err := reg.Call(ctx, "echo", msg)
			check(b, v, err)
		}
		viaHandle += t1.Sub(t0)
		viaCall += time.Since(t1)
	}
	calls := float64(b.N * interleave)
	b.ReportMetric(float64(viaHandle.Nanoseconds())/calls, "handle-ns/call")
	b.ReportMetric(float64(viaCall.Nanoseconds())/calls, "call-ns/call")
	b.ReportMetric(float64(viaHandle)/float64(viaCall), "x-call")
}
