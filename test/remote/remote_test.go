package remote

import (
	"context"
	"errors"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

var settings = tripwire.Settings{Threshold: 3, OpenTimeout: 300 * time.Millisecond, CallTimeout: 3 * time.Second}

func TestRemotePassThrough(t *testing.T) {
	// Given a registry on this node in front of an actor on another
	node := startChild(t, "127.0.0.1:0", 0)
	a := startCaller(t)
	if err := a.reg.Register(context.Background(), "weather", tripwire.ActorTarget(node.pid()), settings); err != nil {
		t.Fatal(err)
	}
	// When protobuf messages are sent through the breaker
	for i := range 3 {
		v, err := tripwire.Key[any, *wrapperspb.StringValue](a.reg, "weather").Call(context.Background(), wrapperspb.String("hello"))
		// Then the remote actor's replies come back
		if err != nil || v.GetValue() != "hello" {
			t.Fatalf("call %d: CallAs = %v, %v", i, v, err)
		}
	}
	if snap, err := a.reg.Snapshot(context.Background(), "weather"); err != nil || snap.State != state.Closed || snap.Failures != 0 {
		t.Fatalf("snapshot %+v, %v", snap, err)
	}
}

func TestNonProtoMessageIsRefused(t *testing.T) {
	// Given a breaker in front of a remote actor
	node := startChild(t, "127.0.0.1:0", 0)
	a := startCaller(t)
	if err := a.reg.Register(context.Background(), "weather", tripwire.ActorTarget(node.pid()), settings); err != nil {
		t.Fatal(err)
	}
	// When messages that cannot be serialized are sent, more than threshold times
	start := time.Now()
	for range settings.Threshold + 1 {
		_, err := a.reg.Call(context.Background(), "weather", "a plain string")
		// Then each call is refused at once, instead of waiting for its deadline
		if !errors.Is(err, tripwire.ErrNotSerializable) {
			t.Fatalf("Call = %v, want ErrNotSerializable", err)
		}
	}
	if took := time.Since(start); took > settings.CallTimeout/2 {
		t.Fatalf("refusals took %v", took)
	}
	// And the circuit counted nothing
	snap, err := a.reg.Snapshot(context.Background(), "weather")
	if err != nil || snap.State != state.Closed || snap.Failures != 0 || snap.InFlight != 0 {
		t.Fatalf("snapshot %+v, %v", snap, err)
	}
	// And a protobuf message still goes through
	if _, err := a.reg.Call(context.Background(), "weather", hello()); err != nil {
		t.Fatalf("Call(proto) = %v", err)
	}
}

func TestRemotePIDWithoutRemoteIsInvalid(t *testing.T) {
	// Given a registry on an actor system without remote
	reg, err := tripwire.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Shutdown(context.Background())
	node := startChild(t, "127.0.0.1:0", 0)
	// When a PID on another node is registered
	err = reg.Register(context.Background(), "weather", tripwire.ActorTarget(node.pid()), settings)
	// Then it is refused: no message could ever reach it
	if !errors.Is(err, tripwire.ErrInvalidTarget) {
		t.Fatalf("Register = %v, want ErrInvalidTarget", err)
	}
}

func TestNodeKilledUnderLoadFailsFastAndOpens(t *testing.T) {
	// Given calls in flight to a remote actor that takes 10 s to answer
	node := startChild(t, "127.0.0.1:0", 10*time.Second)
	a := startCaller(t)
	set := settings
	set.CallTimeout = 5 * time.Second
	set.OpenTimeout = time.Minute // no probe before the last check, whatever stalls the test
	up := connected(node.addr)
	if err := a.reg.Register(context.Background(), "weather", tripwire.ActorTarget(node.pid()), set); err != nil {
		t.Fatal(err)
	}
	select { // the breaker's watch connects to the node
	case <-up:
	case <-time.After(5 * time.Second):
		t.Fatal("the home node never connected to the node")
	}
	const callers = 8
	type answer struct {
		err  error
		took time.Duration
	}
	answers := make(chan answer, callers)
	for range callers {
		go func() {
			begin := time.Now()
			_, err := a.reg.Call(context.Background(), "weather", hello())
			answers <- answer{err, time.Since(begin)}
		}()
	}
	waitFor(t, "calls in flight", func() bool {
		snap, err := a.reg.Snapshot(context.Background(), "weather")
		return err == nil && snap.InFlight == callers
	})
	// (and sent: the node has them all. A call its caller admitted but had
	// not yet sent when the node's death reached the breaker is not among
	// the asks the breaker fails then; sent after it, to the dead node, it
	// fails at its deadline.)
	waitFor(t, "the node got every call", func() bool { return node.counts(t).executed == callers })

	// When its node is killed
	node.kill()
	// Then every call fails with ErrTargetDown long before its deadline
	for range callers {
		ans := <-answers
		if !errors.Is(ans.err, tripwire.ErrTargetDown) || ans.took > set.CallTimeout/2 {
			t.Errorf("answer %v after %v, want ErrTargetDown well before %v", ans.err, ans.took, set.CallTimeout)
		}
	}
	// And the breaker opened because its target went down
	if tr := a.await(t, state.Open, time.Second); tr.Reason != state.ReasonTargetDown {
		t.Fatalf("opened for %q, want %q", tr.Reason, state.ReasonTargetDown)
	}
	// And later calls are rejected at once
	if _, err := a.reg.Call(context.Background(), "weather", hello()); !errors.Is(err, tripwire.ErrOpen) {
		t.Fatalf("Call after the node died = %v, want ErrOpen", err)
	}
}

func TestNodeRestartedClosesAfterProbe(t *testing.T) {
	// Given a breaker opened because its remote target's node died
	node := startChild(t, "127.0.0.1:0", 0)
	a := startCaller(t)
	if err := a.reg.Register(context.Background(), "weather", tripwire.ActorTarget(node.pid()), settings); err != nil {
		t.Fatal(err)
	}
	if _, err := a.reg.Call(context.Background(), "weather", hello()); err != nil {
		t.Fatalf("first call: %v", err)
	}
	node.kill()
	a.await(t, state.Open, settings.CallTimeout)
	// When the node comes back on the same address, and a caller keeps calling
	startChild(t, node.addr, 0)
	stop := a.keepCalling("weather", 50*time.Millisecond)
	defer stop()
	// Then a probe closes the breaker: protoactor retries a lost address
	// every 2 s, and the first probe that reaches the node closes it
	tr := a.await(t, state.Closed, reconnect+settings.OpenTimeout+settings.CallTimeout)
	if tr.Reason != state.ReasonProbeSucceeded {
		t.Fatalf("closed for %q, want %q", tr.Reason, state.ReasonProbeSucceeded)
	}
	v, err := tripwire.Key[any, *wrapperspb.StringValue](a.reg, "weather").Call(context.Background(), hello())
	if err != nil || v.GetValue() != "hello" {
		t.Fatalf("CallAs after restart = %v, %v", v, err)
	}
}
