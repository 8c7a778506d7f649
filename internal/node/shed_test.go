package node

import (
	"errors"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/tripwire-go/tripwire/remoting"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

func TestSheddingNodeDropsExpiredRequestsAndCountsThem(t *testing.T) {
	// Given a node that sheds
	n, err := StartConfig(Config{Listen: "127.0.0.1:0", Shed: true})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	sys, echo := n.System(), n.System().NewLocalPID(Name)
	ask := func(within time.Duration) (any, error) {
		f := actor.NewFuture(sys, max(within, 100*time.Millisecond))
		env, err := remoting.DeadlineEnvelope(wrapperspb.String("hi"), f.PID(), time.Now().Add(within))
		if err != nil {
			t.Fatal(err)
		}
		sys.Root.Send(echo, env)
		return f.Result()
	}
	// When it gets a request whose deadline has passed, and one whose has not
	if _, err := ask(-time.Millisecond); !errors.Is(err, actor.ErrTimeout) {
		t.Errorf("the expired request: %v, want no answer", err)
	}
	if v, err := ask(time.Second); err != nil || v.(*wrapperspb.StringValue).GetValue() != "hi" {
		t.Errorf("the live request: %v, %v", v, err)
	}
	// Then it ran only the live one, and counted the other as shed
	if n.Calls() != 1 || n.Shed() != 1 {
		t.Errorf("calls %d, shed %d; want 1 and 1", n.Calls(), n.Shed())
	}
}
