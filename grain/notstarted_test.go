package grain_test

import (
	"context"
	"errors"
	"testing"

	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/test"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/grain"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// A breaker may be registered before its member starts: a call before
// StartMember (or StartClient) fails with ErrTargetDown, where it used to
// end the program (protoactor's lookup is nil until then, and it ran on a
// goroutine of its own, out of any worker's recover).
func TestACallBeforeTheClusterStartsIsTargetDown(t *testing.T) {
	callUnstarted(t, "before the cluster started", func(*cluster.Cluster, *cluster.Config) {})
}

// callUnstarted calls a grain of a cluster made and not started, after
// prepare, and checks that the call fails with ErrTargetDown.
func callUnstarted(t *testing.T, when string, prepare func(*cluster.Cluster, *cluster.Config)) {
	t.Helper()
	sys := testkit.NewSystem(t)
	reg := testkit.Start(t, sys)
	cfg := cluster.Configure("shop", test.NewTestProvider(test.NewInMemAgent()), disthash.New(),
		remote.Configure("127.0.0.1", 0), cluster.WithKinds(cluster.NewKind("cart", cartProps)))
	c := cluster.New(sys, cfg) // not started
	prepare(c, cfg)
	target, err := grain.Target(c, "cart", "alice")
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(context.Background(), "cart/alice", target, tripwire.Settings{}); err != nil {
		t.Fatal(err)
	}
	_, err = reg.Call(context.Background(), "cart/alice", wrapperspb.String("get"))
	if !errors.Is(err, tripwire.ErrTargetDown) {
		t.Fatalf("call %s: %v, want ErrTargetDown", when, err)
	}
}

// A cluster that cluster.New did not make has no PID cache: it is no
// target, refused at once rather than failing every call.
func TestAClusterNotMadeByNewIsNoTarget(t *testing.T) {
	c := &cluster.Cluster{ActorSystem: testkit.NewSystem(t)}
	if _, err := grain.Target(c, "cart", "alice"); !errors.Is(err, tripwire.ErrInvalidTarget) {
		t.Fatalf("Target of a cluster without a PID cache: %v, want ErrInvalidTarget", err)
	}
}

// StartMember sets the cluster's lookup before it sets the lookup up: a
// call in between found a lookup that panics, on protoactor's goroutine,
// which ended the program. It fails with ErrTargetDown.
func TestACallWhileTheClusterStartsIsTargetDown(t *testing.T) {
	callUnstarted(t, "while the cluster starts", func(c *cluster.Cluster, cfg *cluster.Config) {
		c.IdentityLookup = cfg.IdentityLookup // as StartMember does first, not yet Setup
	})
}
