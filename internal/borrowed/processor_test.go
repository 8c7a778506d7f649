package borrowed_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/internal/borrowed"
)

// The processor a goroutine is told is one of GOMAXPROCS, from every
// goroutine, and more than one of them is seen when goroutines run on every
// core: a runtime whose procPin stopped naming the processor would fail it.
// The goroutines look until both are seen (on a busy machine the other
// core's thread may take a while to be scheduled), for at most a minute.
func TestProcessorIsInRange(t *testing.T) {
	n := runtime.GOMAXPROCS(0)
	var mu sync.Mutex
	seen := map[int]bool{}
	var enough atomic.Bool
	deadline := time.Now().Add(time.Minute)
	var wg sync.WaitGroup
	for range 8 * n {
		wg.Go(func() {
			for !enough.Load() && time.Now().Before(deadline) {
				p := borrowed.Processor()
				if p < 0 || p >= n {
					t.Errorf("Processor() = %d, want 0..%d", p, n-1)
					return
				}
				mu.Lock()
				seen[p] = true
				enough.Store(len(seen) >= min(n, 2))
				mu.Unlock()
				runtime.Gosched()
			}
		})
	}
	wg.Wait()
	if n > 1 && len(seen) < 2 {
		t.Errorf("goroutines on %d processors were told only %v", n, seen)
	}
	if borrowed.Processors() != n {
		t.Errorf("Processors() = %d, want GOMAXPROCS %d", borrowed.Processors(), n)
	}
}

// A pinned goroutine stays on its processor until Unpin, however long it
// runs (the runtime cannot preempt it): what it is told there is the
// processor Pin named. Each spins pinned for longer than the runtime lets
// a goroutine run before it preempts it (10 ms), with more goroutines than
// cores waiting, so a procPin that stopped pinning would see its goroutines
// moved to the other core.
func TestPinKeepsTheGoroutineOnItsProcessor(t *testing.T) {
	n := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for range 4 * n {
		wg.Go(func() {
			for range 4 {
				p := borrowed.Pin()
				moved := 0
				for start := time.Now(); time.Since(start) < 25*time.Millisecond; {
					if borrowed.Processor() != p {
						moved++
					}
				}
				borrowed.Unpin()
				if moved > 0 {
					t.Errorf("pinned to %d, then told another processor %d times", p, moved)
					return
				}
			}
		})
	}
	wg.Wait()
}
