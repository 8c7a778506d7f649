package grain

import (
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/cluster"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// With 10,000 keys on one member (2,000 under the race detector), a
// topology change of another member costs the failover no more than that
// member's keys, and they are all probed when theirs leaves. Real time, to
// measure it.
func TestFailoverWithManyKeys(t *testing.T) {
	const many = manyKeys
	sys := testkit.NewSystem(t)
	x := newFixture(t, &testkit.Env{Sys: sys, Reg: testkit.Start(t, sys)})
	// Given many open breakers of grains on a, and one of a grain on b
	keys := make([]string, many)
	for i := range keys {
		keys[i] = fmt.Sprintf("a/%d", i)
		x.key(keys[i], memberA.Address())
	}
	x.key("b", memberB.Address())
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < many; i += 8 {
				_ = x.call(keys[i], tripwiretest.Op{Fail: true})
			}
		})
	}
	wg.Wait()
	_ = x.call("b", tripwiretest.Op{Fail: true})

	// When b leaves, Then its one key is probed, in no time
	start := time.Now()
	x.e.Sys.EventStream.Publish(&cluster.ClusterTopology{Left: []*cluster.Member{memberB}})
	waitState(t, x.e.Reg, []string{"b"}, state.HalfOpen)
	one := time.Since(start)
	waitState(t, x.e.Reg, keys[:10], state.Open) // a's are left alone
	// When a leaves, Then all of a's are
	start = time.Now()
	x.e.Sys.EventStream.Publish(&cluster.ClusterTopology{Left: []*cluster.Member{memberA}})
	waitState(t, x.e.Reg, keys, state.HalfOpen)
	all := time.Since(start)
	t.Logf("probed 1 key of a member that left (of %d keys) in %v, %d keys in %v", many+1, one.Round(time.Microsecond), many, all.Round(time.Millisecond))
	// Generous bounds: a stall of the test process must not fail it, a
	// failover that went through every key on each change would.
	if one > time.Second || all > 10*time.Second {
		t.Errorf("1 key took %v, %d took %v", one, many, all)
	}
}

// waitState waits until every key is in state st, failing the test after 30 s.
func waitState(t *testing.T, reg *tripwire.Registry, keys []string, st state.State) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for _, k := range keys {
		for {
			got, err := reg.State(k)
			if err == nil && got == st {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %v, %v; want %v", k, got, err, st)
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// A failover's entries stay within twice the keys registered with it: the
// entries of keys WithMaxKeys forgot, or whose Register failed, go.
func TestFailoverDropsTheEntriesOfKeysNotRegistered(t *testing.T) {
	sys := testkit.NewSystem(t)
	x := newFixture(t, &testkit.Env{Sys: sys, Reg: testkit.Start(t, sys)})
	// Given 100 keys registered through the failover
	for i := range 100 {
		x.key(fmt.Sprintf("kept/%d", i), memberA.Address())
	}
	// When targets are made for 10,000 keys that are never registered (a
	// factory whose key WithMaxKeys refused, or forgot since)
	// (each sweep let end before the next entry: sweeps come in order)
	for i := range 10_000 {
		if _, err := x.f.Target(fmt.Sprintf("gone/%d", i), "echo", "x"); err != nil {
			t.Fatal(err)
		}
		x.swept(t)
	}
	// Then it holds no more entries than its sweeps allow: the 100, and
	// the others of the last two sweeps
	x.f.mu.Lock()
	n := len(x.f.entries)
	x.f.mu.Unlock()
	if n > 100+2*minSweep {
		t.Fatalf("%d entries for 100 registered keys", n)
	}
	// and every registered key's
	x.f.mu.Lock()
	defer x.f.mu.Unlock()
	for i := range 100 {
		if x.f.entries[fmt.Sprintf("kept/%d", i)] == nil {
			t.Fatalf("kept/%d's entry dropped", i)
		}
	}
}

// swept waits until no sweep of the fixture's failover is queued or under
// way, failing the test after 10 s.
func (x *fixture) swept(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		x.f.mu.Lock()
		sweeping := x.f.sweepAt == math.MaxInt
		x.f.mu.Unlock()
		if !sweeping {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the sweep did not end within 10 s")
		}
		time.Sleep(time.Millisecond)
	}
}
