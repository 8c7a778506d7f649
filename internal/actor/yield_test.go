package actor

import (
	"runtime/metrics"
	"testing"
)

// The yield of tight retry loops reads runnableMetric: if the runtime
// dropped or retyped it, every yield would give up the core (the safe side)
// and a lone caller's open path would pay a futex call each time again.
func TestRunnableMetricIsKnown(t *testing.T) {
	for _, d := range metrics.All() {
		if d.Name == runnableMetric {
			if d.Kind != metrics.KindUint64 {
				t.Fatalf("%s is of kind %v, want KindUint64", runnableMetric, d.Kind)
			}
			return
		}
	}
	t.Fatalf("the runtime has no metric %s", runnableMetric)
}

// yield must neither block nor allocate, from many goroutines at once.
func TestYieldDoesNotAllocate(t *testing.T) {
	if n := testing.AllocsPerRun(1000, yield); n != 0 {
		t.Fatalf("yield allocates %v times a call, want 0", n)
	}
	done := make(chan struct{})
	for range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 1000 {
				yield()
			}
		}()
	}
	for range 8 {
		<-done
	}
}
