package bench

import (
	"context"
	"testing"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// result is what a function run on a goroutine of its own sends back.
type result struct {
	v   any
	err error
}

// fairPeer is what a user writes by hand for the guarantee a function
// target has: gobreaker around running the function on a goroutine of its
// own and waiting for its result or the context, whichever comes first (a
// hung function then costs its caller the deadline, not forever).
func fairPeer(cb *gobreaker.CircuitBreaker[any], ctx context.Context, fn func(context.Context, any) (any, error), m any) (any, error) {
	return cb.Execute(func() (any, error) {
		ctx, cancel := context.WithTimeout(ctx, callTimeout)
		defer cancel()
		done := make(chan result, 1)
		go func() {
			v, err := fn(ctx, m)
			done <- result{v, err}
		}()
		select {
		case r := <-done:
			return r.v, r.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
}

// roundTrip is the floor of any call handed to another goroutine and
// answered: a request to a server goroutine that echoes it, and back.
type roundTrip struct {
	req chan any
	rep chan any
}

func newRoundTrip(tb testing.TB) *roundTrip {
	rt := &roundTrip{req: make(chan any), rep: make(chan any)}
	go func() {
		for m := range rt.req {
			rt.rep <- m
		}
	}()
	tb.Cleanup(func() { close(rt.req) })
	return rt
}

func (rt *roundTrip) call(m any) any {
	rt.req <- m
	return <-rt.rep
}

// BenchmarkFuncPathInterleaved: one caller calling a function that returns
// its message, three ways in turn, 64 calls each: through a closed
// Tripwire breaker, through the fair peer (fairPeer), and the floor (a
// channel round trip to a server goroutine). Issue 15's targets: Tripwire
// at most 0.6x the fair peer and 2.5x the floor, with at most one
// allocation a call (BenchmarkTripwireClosedFunc has the allocations).
// Run it with GODEBUG=adaptivestackstart=0 too: the peer starts a
// goroutine a call, whose stack start that setting changes.
func BenchmarkFuncPathInterleaved(b *testing.B) {
	reg := testkit.Start(b, testkit.NewSystem(b))
	testkit.Register(b, reg, "echo", tripwire.Func(echoFunc), tripwire.Settings{CallTimeout: callTimeout})
	cb := gobreaker.NewCircuitBreaker[any](gobreaker.Settings{Name: "echo"})
	rt := newRoundTrip(b)
	ctx := context.Background()
	var viaTripwire, viaPeer, viaFloor time.Duration
	for b.Loop() {
		t0 := time.Now()
		for range interleave {
			v, err := reg.Call(ctx, "echo", msg)
			check(b, v, err)
		}
		t1 := time.Now()
		for range interleave {
			v, err := fairPeer(cb, ctx, echoFunc, msg)
			check(b, v, err)
		}
		t2 := time.Now()
		for range interleave {
			check(b, rt.call(msg), nil)
		}
		viaTripwire += t1.Sub(t0)
		viaPeer += t2.Sub(t1)
		viaFloor += time.Since(t2)
	}
	calls := float64(b.N * interleave)
	b.ReportMetric(float64(viaTripwire.Nanoseconds())/calls, "tripwire-ns/call")
	b.ReportMetric(float64(viaPeer.Nanoseconds())/calls, "peer-ns/call")
	b.ReportMetric(float64(viaFloor.Nanoseconds())/calls, "floor-ns/call")
	b.ReportMetric(float64(viaTripwire)/float64(viaPeer), "x-peer")
	b.ReportMetric(float64(viaTripwire)/float64(viaFloor), "x-floor")
}
