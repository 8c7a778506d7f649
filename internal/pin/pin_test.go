package pin

import (
	"runtime"
	"sync"
	"testing"
)

// The processor a goroutine is told is one of GOMAXPROCS, from every
// goroutine, and more than one of them is seen when goroutines run on every
// core: a runtime whose procPin stopped naming the processor would fail it.
func TestProcessorIsInRange(t *testing.T) {
	n := runtime.GOMAXPROCS(0)
	var mu sync.Mutex
	seen := map[int]bool{}
	var wg sync.WaitGroup
	for range 8 * n {
		wg.Go(func() {
			for range 10000 {
				p := Processor()
				if p < 0 || p >= n {
					t.Errorf("Processor() = %d, want 0..%d", p, n-1)
					return
				}
				mu.Lock()
				seen[p] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if n > 1 && len(seen) < 2 {
		t.Errorf("goroutines on %d processors were told only %v", n, seen)
	}
	if Processors() != n {
		t.Errorf("Processors() = %d, want GOMAXPROCS %d", Processors(), n)
	}
}
