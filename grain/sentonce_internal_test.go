package grain

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// placedLookup is an identity lookup that places the grain at pid.
type placedLookup struct{ pid *actor.PID }

func (l *placedLookup) Get(*cluster.ClusterIdentity) *actor.PID        { return l.pid }
func (l *placedLookup) RemovePid(*cluster.ClusterIdentity, *actor.PID) {}
func (l *placedLookup) Setup(*cluster.Cluster, []string, bool)         {}
func (l *placedLookup) Shutdown()                                      {}

// localGrain is departuresFixture with the grain an actor of sys that runs
// receive, cached at its address as a call found it before.
func localGrain(t *testing.T, sys *actor.ActorSystem, receive actor.ReceiveFunc) *caller {
	t.Helper()
	g, _ := departuresFixture(t, sys)
	pid := sys.Root.Spawn(actor.PropsFromFunc(receive))
	t.Cleanup(func() { _ = sys.Root.StopFuture(pid).Wait() })
	g.cluster.IdentityLookup = &placedLookup{pid: pid}
	g.cluster.PidCache.Set(g.identity, g.kind, pid)
	return g
}

func TestAGrainThatForwardsToADeadActorRunsTheCallOnce(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a grain that forwards each call to an actor that has
		// stopped: protoactor answers the forward's dead letter to the
		// call's sender, as it answers a message that reached no grain
		dead := sys.Root.Spawn(actor.PropsFromFunc(func(actor.Context) {}))
		if err := sys.Root.StopFuture(dead).Wait(); err != nil {
			t.Fatal(err)
		}
		var got atomic.Int32
		g := localGrain(t, sys, func(c actor.Context) {
			if _, ok := actor.UnwrapEnvelopeMessage(c.Message()).(*wrapperspb.StringValue); ok {
				got.Add(1)
				c.Forward(dead)
			}
		})

		// When it is called, Then the grain ran it once, and the call is
		// the target's failure
		wantRunOnce(t, g, &got)
	})
}

func TestACallToAGrainThatIsNoLongerThereIsSentAgain(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a cached address whose grain has stopped, and the grain
		// placed anew elsewhere
		var got atomic.Int32
		g := localGrain(t, sys, answering(&got))
		old := sys.Root.Spawn(actor.PropsFromFunc(func(actor.Context) {}))
		if err := sys.Root.StopFuture(old).Wait(); err != nil {
			t.Fatal(err)
		}
		g.cluster.PidCache.Set(g.identity, g.kind, old)

		// When it is called, Then the call reaches the grain where it is now, once
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		v, err := g.call(ctx, wrapperspb.String("charge"))
		if err != nil || got.Load() != 1 {
			t.Fatalf("call: %v, %v; the grain got it %d times, want once", v, err, got.Load())
		}
	})
}

// remoteGrain stands in for a member's endpoint, as protoactor's remote
// answers: a watch of an actor that is not there gets no answer, and a
// dead letter is answered to the message's sender. With there, an actor
// is there and forwards every call to an actor that is gone, so it is a
// dead letter that answers the call; a Touch is answered Touched.
type remoteGrain struct {
	sys   *actor.ActorSystem
	there bool
	calls atomic.Int32
}

func (r *remoteGrain) SendUserMessage(pid *actor.PID, message any) {
	_, msg, sender := actor.UnwrapEnvelope(message)
	if _, touch := msg.(*actor.Touch); touch && r.there {
		r.sys.Root.Send(sender, &actor.Touched{Who: pid})
		return
	} else if !touch {
		r.calls.Add(1)
	}
	r.sys.Root.Send(sender, &actor.DeadLetterResponse{})
}
func (r *remoteGrain) SendSystemMessage(*actor.PID, any) {}
func (r *remoteGrain) Stop(*actor.PID)                   {}

// onRemote is a grain on the member at remoteAddr, as r answers for it.
func onRemote(sys *actor.ActorSystem, r *remoteGrain) *actor.PID {
	const remoteAddr = "10.0.0.3:8090"
	sys.ProcessRegistry.RegisterAddressResolver(func(pid *actor.PID) (actor.Process, bool) {
		return r, pid.Address == remoteAddr
	})
	return actor.NewPID(remoteAddr, "partition-activator/x$1")
}

func TestARemoteGrainThatForwardsToADeadActorRunsTheCallOnce(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a remote grain, cached and placed, that forwards each call
		// to an actor that is gone
		g, _ := departuresFixture(t, sys)
		r := &remoteGrain{sys: sys, there: true}
		pid := onRemote(sys, r)
		g.cluster.IdentityLookup = &placedLookup{pid: pid}
		g.cluster.PidCache.Set(g.identity, g.kind, pid)

		// When it is called, Then it got the call once, and the call is
		// the target's failure
		wantRunOnce(t, g, &r.calls)
	})
}

func TestACallToARemoteAddressThatHasNoGrainIsSentAgain(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a cached address on a member where the grain is no
		// longer, and the grain placed anew on this member
		var got atomic.Int32
		g := localGrain(t, sys, answering(&got))
		r := &remoteGrain{sys: sys}
		g.cluster.PidCache.Set(g.identity, g.kind, onRemote(sys, r))

		// When it is called, Then the call reaches the grain where it is now
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		v, err := g.call(ctx, wrapperspb.String("charge"))
		if err != nil || got.Load() != 1 || r.calls.Load() != 1 {
			t.Fatalf("call: %v, %v; the grain got it %d times here, %d at the old address; want once each", v, err, got.Load(), r.calls.Load())
		}
	})
}

// wantRunOnce calls g's grain once and checks that it got the call once
// (got counts them) and that the call is ErrTargetDown.
func wantRunOnce(t *testing.T, g *caller, got *atomic.Int32) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := g.call(ctx, wrapperspb.String("charge"))
	if n := got.Load(); n != 1 {
		t.Fatalf("the grain got the call %d times, want once", n)
	}
	if !errors.Is(err, tripwire.ErrTargetDown) {
		t.Fatalf("call: %v, want ErrTargetDown", err)
	}
}

// answering is a grain that answers every call, counting them in got.
func answering(got *atomic.Int32) actor.ReceiveFunc {
	return func(c actor.Context) {
		if _, ok := actor.UnwrapEnvelopeMessage(c.Message()).(*wrapperspb.StringValue); ok {
			got.Add(1)
			c.Respond(wrapperspb.String("done"))
		}
	}
}
