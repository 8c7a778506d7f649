package regress

import (
	"context"
	"runtime"
	"testing"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// TestAFunctionCallAllocatesItsContextInSlabs guards issue 15.1: a call of
// a closed function target allocates nothing but the context the function
// runs with, and those 16 at a time (a 64 B allocation a call cost 40–80
// ns with the collector's share). Under -race the call pool drops a
// quarter of what it is given, and each call made anew allocates a few
// times.
func TestAFunctionCallAllocatesItsContextInSlabs(t *testing.T) {
	reg := testkit.Start(t, testkit.NewSystem(t))
	testkit.Register(t, reg, "k", okTarget(), tripwire.Settings{})
	ctx := context.Background()
	call := func() {
		if _, err := reg.Call(ctx, "k", "m"); err != nil {
			t.Fatal(err)
		}
	}
	for range 100 {
		call() // the pooled call and the worker are there
	}
	// When a caller calls it 1,600 times
	const n = 1600
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		call()
	}
	runtime.ReadMemStats(&after)
	// Then it allocated about once in 16 calls
	perCall := float64(after.Mallocs-before.Mallocs) / n
	limit := 0.25 + (1-pooledKept)*12
	t.Logf("%.3f allocations a call (limit %.2f)", perCall, limit)
	if perCall > limit {
		t.Errorf("%.3f allocations a call, want at most %.2f", perCall, limit)
	}
}
