package grain

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/cluster"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// Members a and b of the fake cluster of these tests.
var (
	memberA = &cluster.Member{Id: "a", Host: "10.0.0.1", Port: 7070}
	memberB = &cluster.Member{Id: "b", Host: "10.0.0.2", Port: 7070}
)

// fixture is a registry, a failover on a cluster that is only a member
// list (nothing of it runs: the tests publish its topology events), and
// keys whose targets stand in for grains: each call tells the failover
// where "its grain" lives, as a grain call does, then carries out its
// tripwiretest.Op.
type fixture struct {
	t   *testing.T
	e   *testkit.Env
	c   *cluster.Cluster
	f   *Failover
	at  map[string]*atomic.Pointer[string] // where each key's grain lives ("": nowhere)
	log []state.Transition
}

func newFixture(t *testing.T, e *testkit.Env) *fixture {
	t.Helper()
	c := &cluster.Cluster{ActorSystem: e.Sys}
	c.MemberList = cluster.NewMemberList(c)
	f, err := NewFailover(e.Reg, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Stop)
	return &fixture{t: t, e: e, c: c, f: f, at: map[string]*atomic.Pointer[string]{}}
}

// key registers a key whose grain lives at addr, opens after one failure
// and stays open for a minute on its own.
func (x *fixture) key(key, addr string) {
	x.t.Helper()
	if _, err := x.f.Target(key, "echo", key); err != nil { // the failover's entry of the key
		x.t.Fatal(err)
	}
	at := new(atomic.Pointer[string])
	at.Store(&addr)
	x.at[key] = at
	x.f.mu.Lock()
	e := x.f.entries[key]
	x.f.mu.Unlock()
	var s tripwiretest.Script
	fn := s.Wrap(nil)
	target := tripwire.Func(func(ctx context.Context, msg any) (any, error) {
		e.started(ctx)
		e.placed(*at.Load())
		return fn(ctx, msg)
	})
	testkit.Register(x.t, x.e.Reg, key, target, tripwire.Settings{Threshold: 1, OpenTimeout: time.Minute, CallTimeout: 200 * time.Millisecond})
}

// move puts key's grain on member m.
func (x *fixture) move(key string, m *cluster.Member) {
	addr := m.Address()
	x.at[key].Store(&addr)
}

// call calls key with op and returns its error.
func (x *fixture) call(key string, op tripwiretest.Op) error {
	_, err := x.e.Reg.Call(context.Background(), key, op)
	return err
}

// open opens key's circuit with a failed call.
func (x *fixture) open(key string) {
	x.t.Helper()
	if err := x.call(key, tripwiretest.Op{Fail: true}); !errors.Is(err, tripwiretest.ErrInjected) {
		x.t.Fatalf("failing call to %s: %v", key, err)
	}
	x.want(key, state.Open)
}

// publish publishes a topology change on the member's event stream, as
// protoactor's member list does, and waits until the failover is done.
func (x *fixture) publish(left, joined []*cluster.Member) {
	x.e.Sys.EventStream.Publish(&cluster.ClusterTopology{Left: left, Joined: joined})
	synctest.Wait()
}

// want checks key's state once everything has settled.
func (x *fixture) want(key string, st state.State) {
	x.t.Helper()
	synctest.Wait()
	if got, err := x.e.Reg.State(key); err != nil || got != st {
		x.t.Fatalf("%s at +%v: %v, %v; want %v", key, testkit.SinceStart(), got, err, st)
	}
}

func TestFailoverProbesTheOpenKeysOfAMemberThatLeft(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given open breakers of grains on a, and one of a grain on b
		x := newFixture(t, e)
		for key, m := range map[string]*cluster.Member{"a1": memberA, "a2": memberA, "b1": memberB} {
			x.key(key, m.Address())
			x.open(key)
		}
		// When a leaves the cluster
		time.Sleep(time.Second)
		x.publish([]*cluster.Member{memberA}, nil)
		// Then the breakers of a's grains half-open at once, b's stays open
		x.want("a1", state.HalfOpen)
		x.want("a2", state.HalfOpen)
		x.want("b1", state.Open)
		// And the next call, the probe, finds the grain elsewhere and closes it
		x.move("a1", memberB)
		if err := x.call("a1", tripwiretest.Op{}); err != nil {
			t.Fatalf("probe: %v", err)
		}
		x.want("a1", state.Closed)
		// And a member joining changes nothing for a grain whose member is there
		x.publish(nil, []*cluster.Member{memberA})
		x.want("b1", state.Open)
	})
}

func TestFailoverProbesACircuitThatCallsFromBeforeTheLeaveOpen(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(x *fixture)
	}{
		{"a probe out when a left", func(x *fixture) {
			x.open("k")
			if err := x.e.Reg.ProbeNow(context.Background(), "k"); err != nil {
				x.t.Fatal(err)
			}
		}},
		{"a call out while closed", func(*fixture) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
				// Given a breaker of a grain on a, with a call out to a that
				// will time out 200 ms later
				x := newFixture(t, e)
				x.key("k", memberA.Address())
				tc.setup(x)
				out := make(chan error, 1)
				go func() { out <- x.call("k", tripwiretest.Op{Hang: true}) }()
				time.Sleep(100 * time.Millisecond)
				// When a leaves while the call is out
				x.publish([]*cluster.Member{memberA}, nil)
				// Then the call's timeout opens the circuit, and it is
				// half-opened at once
				if err := <-out; !errors.Is(err, tripwire.ErrTimeout) {
					t.Fatalf("the call out: %v", err)
				}
				x.want("k", state.HalfOpen)
				// And if the probe fails too, the circuit waits its OpenTimeout
				if err := x.call("k", tripwiretest.Op{Fail: true}); !errors.Is(err, tripwiretest.ErrInjected) {
					t.Fatalf("probe: %v", err)
				}
				time.Sleep(59 * time.Second)
				x.want("k", state.Open)
				time.Sleep(time.Second)
				x.want("k", state.HalfOpen)
			})
		})
	}
}

func TestFailoverLeavesAloneACircuitThatOpensLongAfter(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a closed breaker of a grain on a, with no call out, when a leaves
		x := newFixture(t, e)
		x.key("k", memberA.Address())
		if err := x.call("k", tripwiretest.Op{}); err != nil {
			t.Fatal(err)
		}
		x.publish([]*cluster.Member{memberA}, nil)
		x.want("k", state.Closed)
		// When its grain, elsewhere now, fails a second later
		time.Sleep(time.Second)
		x.move("k", memberB)
		x.open("k")
		// Then the circuit stays open: that failure is news
		x.want("k", state.Open)
	})
}

func TestFailoverProbesOnAnyChangeTheKeysThatFoundNoMember(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an open breaker whose grain no member could host
		x := newFixture(t, e)
		x.key("nowhere", "")
		x.open("nowhere")
		// When a member joins
		time.Sleep(time.Second)
		x.publish(nil, []*cluster.Member{memberB})
		// Then it is probed
		x.want("nowhere", state.HalfOpen)
		// And again after it failed and another member leaves
		x.open("nowhere")
		time.Sleep(time.Second)
		x.publish([]*cluster.Member{memberA}, nil)
		x.want("nowhere", state.HalfOpen)
	})
}

func TestFailoverForgetsKeysThatAreNotRegistered(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a key of a grain on a that is unregistered
		x := newFixture(t, e)
		x.key("gone", memberA.Address())
		x.open("gone")
		if err := e.Reg.Unregister(context.Background(), "gone"); err != nil {
			t.Fatal(err)
		}
		// When a leaves
		x.publish([]*cluster.Member{memberA}, nil)
		// Then the failover no longer keeps it
		x.f.mu.Lock()
		defer x.f.mu.Unlock()
		if len(x.f.entries) != 0 || len(x.f.byAddr) != 0 {
			t.Fatalf("entries %v, by address %v", x.f.entries, x.f.byAddr)
		}
	})
}

func TestFailoverStopped(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a failover stopped with an open breaker of a grain on a
		x := newFixture(t, e)
		x.key("k", memberA.Address())
		x.open("k")
		x.f.Stop()
		// When a leaves
		x.publish([]*cluster.Member{memberA}, nil)
		// Then nothing happens, and it makes no more targets
		x.want("k", state.Open)
		if _, err := x.f.Target("other", "echo", "other"); !errors.Is(err, ErrStopped) {
			t.Fatalf("Target after Stop: %v", err)
		}
		x.f.Stop() // a second Stop returns too
	})
}

func TestFailoverRefusesBadInput(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		c := &cluster.Cluster{ActorSystem: e.Sys}
		c.MemberList = cluster.NewMemberList(c)
		for name, args := range map[string]struct {
			reg *tripwire.Registry
			c   *cluster.Cluster
		}{"nil registry": {nil, c}, "nil cluster": {e.Reg, nil}, "cluster without a member list": {e.Reg, &cluster.Cluster{ActorSystem: e.Sys}}} {
			if f, err := NewFailover(args.reg, args.c); f != nil || !errors.Is(err, tripwire.ErrInvalidOption) {
				t.Errorf("%s: %v, %v", name, f, err)
			}
		}
		f, err := NewFailover(e.Reg, c)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Stop()
		for _, tc := range []struct {
			key, kind, id string
			want          error
		}{{"", "echo", "x", tripwire.ErrInvalidKey}, {"k", "", "x", tripwire.ErrInvalidTarget}, {"k", "echo", "", tripwire.ErrInvalidTarget}} {
			if target, err := f.Target(tc.key, tc.kind, tc.id); target != nil || !errors.Is(err, tc.want) {
				t.Errorf("Target(%q, %q, %q) = %v, %v; want %v", tc.key, tc.kind, tc.id, target, err, tc.want)
			}
		}
	})
}
