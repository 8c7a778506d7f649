package remote

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/rawpeer"
	"github.com/tripwire-go/tripwire/state"
)

// Anyone who can reach a node's port could make protoactor's endpoint
// reader dereference nil or index past a slice on a gRPC goroutine, and so
// end the node's process: a message of a type the node does not link (as
// an honest peer one build ahead sends), for a serializer it does not
// have, pointing outside its batch, or a Terminated without who. With
// remoting's guard the node refuses each, counts it, and it and its other
// connections go on.
func TestAStrangerCannotCrashTheNode(t *testing.T) {
	// Given a node, and a breaker on this one calling it all along
	node := startNode(t, nodeSpec{Listen: "127.0.0.1:0", Remoting: remotingSpec{On: true}})
	a := startCaller(t)
	if err := a.reg.Register(context.Background(), "dep", tripwire.ActorTarget(node.pid()), settings); err != nil {
		t.Fatal(err)
	}
	stop := sync.OnceFunc(a.keepCalling("dep", 20*time.Millisecond))
	defer stop()
	// And a stranger speaking protoactor's protocol itself
	stranger, err := rawpeer.Dial(node.addr, insecure.NewCredentials())
	if err != nil {
		t.Fatal(err)
	}
	defer stranger.Close()
	hello, err := rawpeer.Proto(wrapperspb.String("hello"), node.pid(), nil)
	if err != nil {
		t.Fatal(err)
	}
	terminated, err := rawpeer.Proto(&actor.Terminated{}, node.pid(), nil)
	if err != nil {
		t.Fatal(err)
	}
	bad := []*remote.MessageBatch{
		rawpeer.Batch(rawpeer.Envelope{Type: "tripwire.test.FromANewerBuild", Data: hello.Data, Target: node.pid()}),
		rawpeer.Batch(rawpeer.Envelope{Type: hello.Type, Data: hello.Data, Serializer: 9, Target: node.pid()}),
		func() *remote.MessageBatch { b := rawpeer.Batch(hello); b.Envelopes[0].TypeId = 3; return b }(),
		rawpeer.Batch(terminated),
	}
	// When it sends what protoactor would crash on
	for _, b := range bad {
		if err := stranger.Send(b); err != nil {
			t.Fatal(err)
		}
	}
	// Then a good message after them, on the same stream, is answered
	f := actor.NewFuture(home.System(), 10*time.Second)
	good, err := rawpeer.Proto(wrapperspb.String("still there?"), node.pid(), f.PID())
	if err != nil {
		t.Fatal(err)
	}
	if err := stranger.Send(rawpeer.Batch(good)); err != nil {
		t.Fatal(err)
	}
	if v, err := f.Result(); err != nil || v.(*wrapperspb.StringValue).GetValue() != "still there?" {
		t.Fatalf("the good message after the bad ones: %v, %v", v, err)
	}
	// And the node is alive, and refused each bad one
	if !node.alive() {
		t.Fatal("the node exited")
	}
	if n := node.counts(t); n.refused != len(bad) {
		t.Errorf("the node refused %d messages, want %d", n.refused, len(bad))
	}
	// And the breaker calling it on its own connection stayed closed
	stop()
	snap, err := a.reg.Snapshot(context.Background(), "dep")
	if err != nil || snap.State != state.Closed || snap.Stats.Total.Successes == 0 {
		t.Errorf("the breaker on another connection: %+v, %v", snap, err)
	}
}
