package grain

import (
	"context"
	"errors"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
	"unsafe"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// blackHole stands in for protoactor's endpoint to a member that died
// before the topology dropped it: it takes every message, the grain's
// Watch among them, and never answers.
type blackHole struct{ got atomic.Int32 }

func (b *blackHole) SendUserMessage(*actor.PID, any)   { b.got.Add(1) }
func (b *blackHole) SendSystemMessage(*actor.PID, any) { b.got.Add(1) }
func (b *blackHole) Stop(*actor.PID)                   {}

// departuresFixture is a cluster that is only an actor system, a member
// list and a PID cache, whose remote members a and b are black holes.
func departuresFixture(t *testing.T, sys *actor.ActorSystem) (*caller, *blackHole) {
	t.Helper()
	c := &cluster.Cluster{ActorSystem: sys, PidCache: cluster.NewPidCache()}
	c.MemberList = cluster.NewMemberList(c)
	hole := &blackHole{}
	sys.ProcessRegistry.RegisterAddressResolver(func(pid *actor.PID) (actor.Process, bool) {
		return hole, pid.Address == memberA.Address() || pid.Address == memberB.Address()
	})
	return &caller{cluster: c, kind: "echo", identity: "x", gone: departuresOf(c)}, hole
}

func topology(members []*cluster.Member, left ...*cluster.Member) *cluster.ClusterTopology {
	return &cluster.ClusterTopology{Members: members, Left: left}
}

// askAsync asks the grain at m in a goroutine of its own, with a minute's
// deadline.
func askAsync(g *caller, m *cluster.Member) <-chan result {
	out := make(chan result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		out <- g.ask(ctx, actor.NewPID(m.Address(), "echo$x"), wrapperspb.String("hi"))
	}()
	return out
}

func TestACallOutToAMemberEndsWhenTheTopologyDropsIt(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given calls out to grains on a and on b, whose endpoints never answer
		g, hole := departuresFixture(t, sys)
		sys.EventStream.Publish(topology([]*cluster.Member{memberA, memberB}))
		onA, onB := askAsync(g, memberA), askAsync(g, memberB)
		synctest.Wait()
		if hole.got.Load() == 0 {
			t.Fatal("the calls sent nothing")
		}

		// When the topology drops b
		start := time.Now()
		sys.EventStream.Publish(topology([]*cluster.Member{memberA}, memberB))
		synctest.Wait()

		// Then the call to b ends at once with ErrTargetDown, and the call to a waits on
		select {
		case r := <-onB:
			if !errors.Is(r.err, tripwire.ErrTargetDown) || r.undelivered {
				t.Fatalf("call to b: %+v, want ErrTargetDown, maybe delivered", r)
			}
			if d := time.Since(start); d != 0 {
				t.Fatalf("call to b ended after %v, want at once", d)
			}
		default:
			t.Fatal("the call to b still waits after the topology dropped b")
		}
		select {
		case r := <-onA:
			t.Fatalf("the call to a ended when b left: %+v", r)
		default:
		}

		// And when a leaves too, its call ends, and nothing is left watching
		sys.EventStream.Publish(topology(nil, memberA))
		synctest.Wait()
		if r := <-onA; !errors.Is(r.err, tripwire.ErrTargetDown) {
			t.Fatalf("call to a: %+v, want ErrTargetDown", r)
		}
		wantNoneWatched(t, g.gone)
	})
}

func TestACallToAMemberTheTopologyDroppedEndsAtOnce(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a topology that dropped b
		g, hole := departuresFixture(t, sys)
		sys.EventStream.Publish(topology([]*cluster.Member{memberA}, memberB))

		// When a call goes to a PID on b (from a cache, say)
		r := <-askAsync(g, memberB)

		// Then it ends at once with ErrTargetDown, having sent nothing
		if !errors.Is(r.err, tripwire.ErrTargetDown) {
			t.Fatalf("call to b: %+v, want ErrTargetDown", r)
		}
		if n := hole.got.Load(); n != 0 {
			t.Fatalf("%d messages sent to b", n)
		}
		wantNoneWatched(t, g.gone)
	})
}

func TestACallWaitsOnWhileNoTopologyIsKnown(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given no topology seen yet, When a call goes to b, Then it waits for
		// its deadline: departures cannot tell b is gone
		g, _ := departuresFixture(t, sys)
		start := time.Now()
		r := <-askAsync(g, memberB)
		if !errors.Is(r.err, context.DeadlineExceeded) || time.Since(start) != time.Minute {
			t.Fatalf("call to b: %+v after %v, want its deadline after a minute", r, time.Since(start))
		}
		wantNoneWatched(t, g.gone)
	})
}

func TestOneClusterHasOneDepartures(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		c := &cluster.Cluster{ActorSystem: sys}
		other := &cluster.Cluster{ActorSystem: sys}
		if departuresOf(c) != departuresOf(c) {
			t.Fatal("two departures for one cluster")
		}
		if departuresOf(c) == departuresOf(other) {
			t.Fatal("two clusters share a departures")
		}
	})
}

// wantNoneWatched fails the test if d has calls waiting on any address.
func wantNoneWatched(t *testing.T, d *departures) {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	if n := len(d.waiting); n != 0 {
		t.Fatalf("%d addresses still watched", n)
	}
}

// stuckLookup is an identity lookup whose first Get waits until release
// closes, as disthash's does for its 5 s when it asks a dead member; later
// ones find the grain on a.
type stuckLookup struct {
	gets    atomic.Int32
	release chan struct{}
}

func (l *stuckLookup) Get(*cluster.ClusterIdentity) *actor.PID {
	if l.gets.Add(1) == 1 {
		<-l.release
		return nil
	}
	return actor.NewPID(memberA.Address(), "echo$x")
}
func (l *stuckLookup) RemovePid(*cluster.ClusterIdentity, *actor.PID) {}
func (l *stuckLookup) Setup(*cluster.Cluster, []string, bool)         {}
func (l *stuckLookup) Shutdown()                                      {}

// stuckFixture is departuresFixture with a stuckLookup, released when the
// test ends.
func stuckFixture(t *testing.T, sys *actor.ActorSystem) (*caller, *stuckLookup) {
	t.Helper()
	g, _ := departuresFixture(t, sys)
	lookup := &stuckLookup{release: make(chan struct{})}
	t.Cleanup(func() { close(lookup.release) })
	g.cluster.IdentityLookup = lookup
	return g, lookup
}

func TestALookupStartsAgainWhenTheTopologyDropsAMember(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a lookup that waits on b
		g, lookup := stuckFixture(t, sys)
		sys.EventStream.Publish(topology([]*cluster.Member{memberA, memberB}))
		type located struct {
			pid *actor.PID
			err error
		}
		out := make(chan located, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			pid, _, err := g.locate(ctx, true)
			out <- located{pid, err}
		}()
		synctest.Wait()
		select {
		case l := <-out:
			t.Fatalf("located %+v while the lookup waits", l)
		default:
		}

		// When the topology drops b
		start := time.Now()
		sys.EventStream.Publish(topology([]*cluster.Member{memberA}, memberB))
		synctest.Wait()

		// Then the grain is looked up again, at once, and found on a
		select {
		case l := <-out:
			if l.err != nil || l.pid == nil || l.pid.Address != memberA.Address() || time.Since(start) != 0 {
				t.Fatalf("located %+v after %v, want the grain on a at once", l, time.Since(start))
			}
		default:
			t.Fatal("the lookup still waits after the topology dropped b")
		}
		if n := lookup.gets.Load(); n != 2 {
			t.Fatalf("%d lookups, want 2", n)
		}
	})
}

func TestALookupEndsWithItsCall(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a lookup that waits, When the call's deadline passes, Then
		// locate returns with the deadline's error, not with the lookup
		g, _ := stuckFixture(t, sys)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start := time.Now()
		if _, _, err := g.locate(ctx, true); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != time.Second {
			t.Fatalf("locate: %v after %v, want the deadline's error after 1s", err, time.Since(start))
		}
	})
}

func TestALookupWaitingForTheTopologyToSettleEndsWithItsCall(t *testing.T) {
	// Not in a bubble: a goroutine waiting on a mutex is not durably
	// blocked, so fake time would not pass while the lookup waits.
	sys := testkit.NewSystem(t)
	g, lookup := stuckFixture(t, sys)
	sys.EventStream.Publish(topology([]*cluster.Member{memberA, memberB}))

	// Given a lookup that waits on b, and a member list that is still
	// publishing a topology (a subscriber of the program's is slow)
	mu := memberListLock(g.cluster.MemberList)
	mu.Lock()
	unlock := sync.OnceFunc(mu.Unlock)
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	out := make(chan error, 1)
	go func() {
		_, _, err := g.locate(ctx, true)
		out <- err
	}()
	for lookup.gets.Load() == 0 {
		runtime.Gosched() // until the lookup waits (it took the topology's leave first)
	}

	// When the topology drops b, Then the lookup ends at its call's
	// deadline, not when the member list lets go
	sys.EventStream.Publish(topology([]*cluster.Member{memberA}, memberB))
	select {
	case err := <-out:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("locate: %v, want the deadline's error", err)
		}
	case <-time.After(10 * time.Second): // a watchdog, far past the deadline
		unlock()
		<-out
		t.Fatal("the lookup waited for the member list past its call's deadline")
	}
}

// memberListLock is the lock protoactor's member list publishes a topology
// under.
func memberListLock(ml *cluster.MemberList) *sync.RWMutex {
	f := reflect.ValueOf(ml).Elem().FieldByName("mutex")
	return (*sync.RWMutex)(unsafe.Pointer(f.UnsafeAddr()))
}
