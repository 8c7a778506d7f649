package bench

import (
	"testing"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/sony/gobreaker/v2"

	"github.com/tripwire-go/tripwire/internal/testkit"
)

// parallelism * GOMAXPROCS callers run in the parallel benchmarks: 16 on the
// 2-core machines CI uses, as in /work/shared/notes/performance.md.
const parallelism = 8

// ask is what a user without Tripwire writes to ask an actor.
func ask(sys *actor.ActorSystem, pid *actor.PID) (any, error) {
	return sys.Root.RequestFuture(pid, msg, callTimeout).Result()
}

// BenchmarkRequestFutureParallel: the floor with many callers on one actor.
func BenchmarkRequestFutureParallel(b *testing.B) {
	sys := testkit.NewSystem(b)
	pid := spawnEcho(b, sys)
	b.SetParallelism(parallelism)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			v, err := ask(sys, pid)
			check(b, v, err)
		}
	})
}

// BenchmarkGobreakerRequestFuture: sony/gobreaker v2 around the same
// RequestFuture, closed: what a user would write instead of Tripwire.
func BenchmarkGobreakerRequestFuture(b *testing.B) {
	sys := testkit.NewSystem(b)
	pid := spawnEcho(b, sys)
	cb := gobreaker.NewCircuitBreaker[any](gobreaker.Settings{Name: "echo"})
	req := func() (any, error) { return ask(sys, pid) }
	for b.Loop() {
		v, err := cb.Execute(req)
		check(b, v, err)
	}
}

// BenchmarkGobreakerClosedFunc: gobreaker's closed path around a function
// that returns its message (what a breaker costs without any actor).
func BenchmarkGobreakerClosedFunc(b *testing.B) {
	cb := gobreaker.NewCircuitBreaker[any](gobreaker.Settings{Name: "echo"})
	req := func() (any, error) { return msg, nil }
	for b.Loop() {
		v, err := cb.Execute(req)
		check(b, v, err)
	}
}
