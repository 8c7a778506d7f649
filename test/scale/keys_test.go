package scale

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// goroutineHighWater is how many goroutines warmGoroutines runs at once:
// above the most a 100,000-key test has at once on a busy machine (about
// 20,000, protoactor's mailboxes each scheduled on a goroutine of its own).
const goroutineHighWater = 50_000

// warmGoroutines runs goroutineHighWater goroutines at once and lets them
// end. The runtime keeps the descriptor of every goroutine it ever made
// (about 480 B of heap each) for the next one to reuse; made before a test
// reads its base heap, they are not counted as the keys' when a burst of
// goroutines on a busy machine (a key's mailbox is run by a goroutine a
// turn) outnumbers the ones a quiet run had.
func warmGoroutines() {
	var started, done sync.WaitGroup
	release := make(chan struct{})
	for range goroutineHighWater {
		started.Add(1)
		done.Add(1)
		go func() {
			started.Done()
			<-release
			done.Done()
		}()
	}
	started.Wait()
	close(release)
	done.Wait()
}

// heap is the live heap after full collections.
func heap() int64 {
	var ms runtime.MemStats
	for range 3 {
		runtime.GC()
	}
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// settled is the heap per key above base, measured every half second until
// it is at most limit, for at most a minute (then the least measured): what
// a registry lets go after a step (windows that drain, timers that come
// due, mailboxes that close) it lets go later on a machine whose cores are
// busy with other jobs. Memory that stays held stays in the figure.
func settled(base int64, n int, limit int64) int64 {
	least := (heap() - base) / int64(n)
	for end := time.Now().Add(time.Minute); least > limit && time.Now().Before(end); {
		time.Sleep(500 * time.Millisecond)
		least = min(least, (heap()-base)/int64(n))
	}
	return least
}

func key(i int) string { return fmt.Sprintf("tenant-%07d", i) }

var ok = tripwire.Func(func(context.Context, any) (any, error) { return "ok", nil })

// batch is how many keys one timing of Register covers.
const batch = 1000

// registerAll registers keys [from, to) and returns the time per key of
// the first batch and the median of the last ten batches'.
func registerAll(tb testing.TB, reg *tripwire.Registry, from, to int, s tripwire.Settings) (first, last time.Duration) {
	tb.Helper()
	var times []time.Duration
	for start := from; start < to; start += batch {
		end := min(start+batch, to)
		t0 := time.Now()
		for i := start; i < end; i++ {
			if err := reg.Register(context.Background(), key(i), ok, s); err != nil {
				tb.Fatalf("Register %d: %v", i, err)
			}
		}
		times = append(times, time.Since(t0)/time.Duration(end-start))
	}
	tail := slices.Clone(times[max(0, len(times)-10):])
	slices.Sort(tail)
	return times[0], tail[len(tail)/2]
}

// callAll calls keys [from, to) once each from workers goroutines. A call
// that times out is made again, up to ten times: on a machine whose cores
// are busy with other jobs a wake and its call can outlast a short
// CallTimeout; any other error fails tb.
func callAll(tb testing.TB, reg *tripwire.Registry, from, to, workers int) {
	tb.Helper()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := from + w; i < to; i += workers {
				var err error
				for range 10 {
					if _, err = reg.Call(context.Background(), key(i), nil); !errors.Is(err, tripwire.ErrTimeout) {
						break
					}
				}
				if err != nil {
					tb.Errorf("Call %d: %v", i, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// processes is the number of processes in sys's process table.
func processes(sys *actor.ActorSystem) int {
	n := 0
	for _, m := range sys.ProcessRegistry.LocalPIDs.LocalPIDs {
		n += m.Count()
	}
	return n
}

// waitForProcesses waits until sys has at most n processes.
func waitForProcesses(tb testing.TB, sys *actor.ActorSystem, n int) {
	tb.Helper()
	for deadline := time.Now().Add(2 * time.Minute); processes(sys) > n; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			tb.Fatalf("%d processes, want at most %d", processes(sys), n)
		}
	}
}

// protoactorFloor is what protoactor itself keeps, per actor, of n plain
// actors spawned and stopped: its process table (1,024 × 32 Go maps) keeps
// the buckets of the largest it was. Measured on a system of its own.
func protoactorFloor(tb testing.TB, n int) int64 {
	tb.Helper()
	sys := testkit.NewSystem(tb)
	before := heap()
	props := actor.PropsFromFunc(func(actor.Context) {})
	pids := make([]*actor.PID, n)
	for i := range pids {
		pids[i], _ = sys.Root.SpawnNamed(props, fmt.Sprintf("tripwire-$2/%s#1", key(i)))
	}
	for _, pid := range pids {
		sys.Root.Stop(pid)
	}
	pids = nil
	waitForProcesses(tb, sys, 2)
	return (heap() - before) / int64(n)
}
