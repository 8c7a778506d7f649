package bench

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// cpuTime is the process's CPU time so far, user and system.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// hotKeyCalls is how many calls one op of BenchmarkHotKey makes, spread
// over its callers.
const hotKeyCalls = 200_000

// BenchmarkHotKey: callers goroutines calling one key as fast as they can,
// a function that returns its message, through Tripwire and through the
// fair peer (fairPeer), in the same run. Reported: calls per second, CPU
// per call (the process's, over the calls), and cores busy (process CPU /
// wall). Issue 15's targets: at 16, 64 and 256 callers at least the fair
// peer's calls/s and 1M calls/s with both cores busy, and a CPU per call
// that does not grow with callers.
func BenchmarkHotKey(b *testing.B) {
	reg := testkit.Start(b, testkit.NewSystem(b))
	testkit.Register(b, reg, "echo", tripwire.Func(echoFunc), tripwire.Settings{CallTimeout: callTimeout})
	cb := gobreaker.NewCircuitBreaker[any](gobreaker.Settings{Name: "echo"})
	ctx := context.Background()
	hotKey(b, []side{
		{"tripwire", func() (any, error) { return reg.Call(ctx, "echo", msg) }},
		{"peer", func() (any, error) { return fairPeer(cb, ctx, echoFunc, msg) }},
	})
}

// BenchmarkHotKeyActor is BenchmarkHotKey for an actor target (an echo
// actor), against a plain RequestFuture to the same actor. Issue 15's
// target: at 64 callers at least 1.2x RequestFuture's calls/s.
func BenchmarkHotKeyActor(b *testing.B) {
	sys, pid, reg := echoKey(b)
	ctx := context.Background()
	hotKey(b, []side{
		{"tripwire", func() (any, error) { return reg.Call(ctx, "echo", msg) }},
		{"future", func() (any, error) { return ask(sys, pid) }},
	})
}

// side is one way of making a call, as the hot-key benchmarks compare them.
type side struct {
	name string
	call func() (any, error)
}

// hotKey runs each side with 16, 64 and 256 callers, in turn.
func hotKey(b *testing.B, sides []side) {
	for _, callers := range []int{16, 64, 256} {
		for _, side := range sides {
			b.Run(fmt.Sprintf("%s/callers=%d", side.name, callers), func(b *testing.B) {
				for b.Loop() {
					cpu0 := cpuTime(b)
					wall := callersRound(b, callers, hotKeyCalls, side.call)
					cpu := cpuTime(b) - cpu0
					n := float64(hotKeyCalls / callers * callers)
					b.ReportMetric(n/wall.Seconds(), "calls/s")
					b.ReportMetric(float64(cpu.Nanoseconds())/n, "cpu-ns/call")
					b.ReportMetric(float64(cpu)/float64(wall), "cores-busy")
				}
			})
		}
	}
}

// callersRound has callers goroutines make calls calls of call between
// them (rounded down to a multiple of callers), each checked, and returns
// the wall time they took.
func callersRound(b *testing.B, callers, calls int, call func() (any, error)) time.Duration {
	t0 := time.Now()
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for range calls / callers {
				v, err := call()
				check(b, v, err)
			}
		})
	}
	wg.Wait()
	return time.Since(t0)
}
