package regress

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// TestUnregisterReturnsAKeysMemory guards issue 12.8: Unregister kept about
// half of a key's memory until Shutdown — the closed mailbox still referred
// to the stopped breaker, protoactor's set of the supervisor's children kept
// stale pointers to its process (and through it the mailbox), and the key
// map kept its largest size. After Unregister, at least 85% of what the keys
// took must be back.
func TestUnregisterReturnsAKeysMemory(t *testing.T) {
	const keys = 5000
	reg := testkit.Start(t, testkit.NewSystem(t))
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	// Given 5,000 keys, each called once
	base := heap()
	for i := range keys {
		key := fmt.Sprintf("tenant-%05d", i)
		testkit.Register(t, reg, key, okTarget(), tripwire.Settings{})
		if _, err := reg.Call(context.Background(), key, "m"); err != nil {
			t.Fatal(err)
		}
	}
	registered := heap()
	// When every key is unregistered
	for i := range keys {
		if err := reg.Unregister(fmt.Sprintf("tenant-%05d", i)); err != nil {
			t.Fatal(err)
		}
	}
	after := heap()
	// Then at least 85% of the keys' heap is returned (what stays is
	// protoactor's: its process table and the supervisor's set of
	// children keep the buckets of the largest they were)
	took := float64(registered) - float64(base)
	kept := float64(after) - float64(base)
	t.Logf("%d keys: %.0f B each registered, %.0f B each kept after Unregister", keys, took/keys, kept/keys)
	if kept > 0.15*took {
		t.Errorf("Unregister kept %.0f%% of the keys' heap (%.0f B per key)", 100*kept/took, kept/keys)
	}
}
