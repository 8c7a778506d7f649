package bench

import (
	"context"
	"testing"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// setupClosedActor returns a registry with key "echo": a closed breaker in
// front of an echo actor.
func setupClosedActor(tb testing.TB) *tripwire.Registry {
	sys := testkit.NewSystem(tb)
	pid := spawnEcho(tb, sys)
	reg := testkit.Start(tb, sys)
	testkit.Register(tb, reg, "echo", tripwire.ActorTarget(pid), tripwire.Settings{CallTimeout: callTimeout})
	return reg
}

// setupClosedFunc returns a registry with key "echo": a closed breaker in
// front of a function that returns its message.
func setupClosedFunc(tb testing.TB) *tripwire.Registry {
	reg := testkit.Start(tb, testkit.NewSystem(tb))
	testkit.Register(tb, reg, "echo", tripwire.Func(echoFunc), tripwire.Settings{CallTimeout: callTimeout})
	return reg
}

// BenchmarkTripwireClosedActor: Call through a closed breaker to an actor
// that Responds. Compare with BenchmarkRequestFuture (target <= 1.0x).
func BenchmarkTripwireClosedActor(b *testing.B) {
	reg := setupClosedActor(b)
	ctx := context.Background()
	for b.Loop() {
		v, err := reg.Call(ctx, "echo", msg)
		check(b, v, err)
	}
}

// BenchmarkRequestFuture: a plain protoactor request to the same kind of
// echo actor: the floor for an actor target. It is here, right after
// BenchmarkTripwireClosedActor, because benchmarks run in the order of
// their files and of the functions in them: the two separate benchmarks
// then run seconds apart, after the same benchmarks before them (Go sizes a
// new goroutine's stack from what ran before it), rather than minutes apart
// with the hot-key runs between them.
func BenchmarkRequestFuture(b *testing.B) {
	sys := testkit.NewSystem(b)
	pid := spawnEcho(b, sys)
	for b.Loop() {
		v, err := ask(sys, pid)
		check(b, v, err)
	}
}

// BenchmarkTripwireClosedFunc: Call through a closed breaker to a function
// target. Compare with BenchmarkRequestFuture (target <= 0.5x).
func BenchmarkTripwireClosedFunc(b *testing.B) {
	reg := setupClosedFunc(b)
	ctx := context.Background()
	for b.Loop() {
		v, err := reg.Call(ctx, "echo", msg)
		check(b, v, err)
	}
}

// BenchmarkTripwireClosedActorParallel: many callers on one closed breaker
// in front of one echo actor; compare with BenchmarkRequestFutureParallel.
func BenchmarkTripwireClosedActorParallel(b *testing.B) {
	callParallel(b, setupClosedActor(b))
}

// BenchmarkTripwireClosedFuncParallel: many callers on one closed breaker in
// front of a function target.
func BenchmarkTripwireClosedFuncParallel(b *testing.B) {
	callParallel(b, setupClosedFunc(b))
}

// callParallel calls key "echo" of reg from parallelism × GOMAXPROCS callers.
func callParallel(b *testing.B, reg *tripwire.Registry) {
	ctx := context.Background()
	b.SetParallelism(parallelism)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			v, err := reg.Call(ctx, "echo", msg)
			check(b, v, err)
		}
	})
}
