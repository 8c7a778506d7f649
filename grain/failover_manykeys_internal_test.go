package grain

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/cluster"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/test/chaos"
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
				_ = x.call(keys[i], chaos.Op{Fail: true})
			}
		})
	}
	wg.Wait()
	_ = x.call("b", chaos.Op{Fail: true})

	// When b leaves, Then its one key is probed, in no time
	start := time.Now()
	x.e.Sys.EventStream.Publish(&cluster.ClusterTopology{Left: []*cluster.Member{memberB}})
	waitState(t, x.e.Reg, []string{"b"}, tripwire.HalfOpen)
	one := time.Since(start)
	waitState(t, x.e.Reg, keys[:10], tripwire.Open) // a's are left alone
	// When a leaves, Then all of a's are
	start = time.Now()
	x.e.Sys.EventStream.Publish(&cluster.ClusterTopology{Left: []*cluster.Member{memberA}})
	waitState(t, x.e.Reg, keys, tripwire.HalfOpen)
	all := time.Since(start)
	t.Logf("probed 1 key of a member that left (of %d keys) in %v, %d keys in %v", many+1, one.Round(time.Microsecond), many, all.Round(time.Millisecond))
	// Generous bounds: a stall of the test process must not fail it, a
	// failover that went through every key on each change would.
	if one > time.Second || all > 10*time.Second {
		t.Errorf("1 key took %v, %d took %v", one, many, all)
	}
}

// waitState waits until every key is in state st, failing the test after 30 s.
func waitState(t *testing.T, reg *tripwire.Registry, keys []string, st tripwire.State) {
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
