package regress

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// TestUnregisterReturnsAKeysMemory guards issue 12.8: Unregister kept about
// half of a key's memory until Shutdown — the closed mailbox still referred
// to the stopped breaker, protoactor's set of the supervisor's children kept
// stale pointers to its process (and through it the mailbox), and the key
// map kept its largest size. After Unregister, at least 90% of what the keys
// took must be back, but for what protoactor keeps of any actor.
//
// protoactor's process table (1,024 × 32 Go maps) keeps the buckets of the
// largest it was: a few hundred bytes per actor at this count, about 90 at
// 100,000 (see test/scale). That floor is measured in the same run, as what
// spawning and stopping as many plain actors leaves behind.
//
// It runs in a process of its own: what earlier tests left for the
// collector (an actor system that a stopped timer still held, 3 MB) was
// freed in CI while it measured, and made its figures negative.
func TestUnregisterReturnsAKeysMemory(t *testing.T) {
	if !alone(t) {
		return
	}
	const keys = 5000
	sys := testkit.NewSystem(t)
	reg := testkit.Start(t, sys)
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
	actors := localActors(sys) - keys // all but the keys' breakers
	// When every key is unregistered
	for i := range keys {
		if err := reg.Unregister(context.Background(), fmt.Sprintf("tenant-%05d", i)); err != nil {
			t.Fatal(err)
		}
	}
	// (once their breakers' processes are gone: a breaker tells its
	// supervisor it stopped just before protoactor removes its process,
	// which a loaded machine may leave for later)
	waitFor(t, "the breakers' processes to go", func() bool { return localActors(sys) <= actors })
	after := heap()
	// and as many plain actors are spawned and stopped
	props := actor.PropsFromFunc(func(actor.Context) {})
	pids := make([]*actor.PID, keys)
	for i := range pids {
		pids[i] = sys.Root.Spawn(props)
		sys.Root.Stop(pids[i])
	}
	for _, pid := range pids {
		waitFor(t, pid.Id+" to stop", func() bool {
			_, alive := sys.ProcessRegistry.GetLocal(pid.Id)
			return !alive
		})
	}
	pids = nil
	floor := float64(heap()) - float64(after)
	// Then at least 90% of the keys' heap is returned, but for
	// protoactor's floor
	took := float64(registered) - float64(base)
	kept := float64(after) - float64(base) - floor
	t.Logf("%d keys: %.0f B each registered, %.0f B each kept after Unregister beyond protoactor's %.0f B",
		keys, took/keys, kept/keys, floor/keys)
	if kept > 0.10*took {
		t.Errorf("Unregister kept %.0f%% of the keys' heap (%.0f B per key)", 100*kept/took, kept/keys)
	}
}

// alone reports whether the test runs in a process of its own. If not,
// it runs the test in one, a child of this test binary, and reports its
// outcome as its own.
func alone(t *testing.T) bool {
	t.Helper()
	if os.Getenv(aloneEnv) == t.Name() {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), aloneEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s in a process of its own: %v\n%s", t.Name(), err, out)
	}
	t.Logf("in a process of its own:\n%s", out)
	return false
}

// aloneEnv names, in a child's environment, the test it is to run alone.
const aloneEnv = "TRIPWIRE_TEST_ALONE"

// localActors counts the processes in sys's process table.
func localActors(sys *actor.ActorSystem) int {
	n := 0
	for _, m := range sys.ProcessRegistry.LocalPIDs.LocalPIDs {
		n += m.Count()
	}
	return n
}

// waitFor polls done, for up to 10 seconds, until it holds.
func waitFor(t *testing.T, what string, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !done(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
	}
}
