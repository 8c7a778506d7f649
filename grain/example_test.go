package grain_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/test"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"
	"go.uber.org/zap"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/grain"
)

// cartProps is the grain kind of the examples: it answers with its message.
var cartProps = actor.PropsFromFunc(func(c actor.Context) {
	if m, ok := c.Message().(*wrapperspb.StringValue); ok {
		c.Respond(m)
	}
})

// A breaker in front of a grain of the cluster the registry's member is in.
// (Compiled, not run: it starts a cluster member.)
func ExampleTarget() {
	ctx, logger := context.Background(), zap.NewNop()
	provider := test.NewTestProvider(test.NewInMemAgent())

	sys := actor.NewActorSystem() // ExampleWithActorSystem of the root package sends its logs to zap
	cfg := cluster.Configure("shop",
		provider,       // etcdprovider.New(...), consul, k8s, zk, automanaged... (tests: test.NewTestProvider(test.NewInMemAgent()))
		disthash.New(), // identity lookup
		remote.Configure("0.0.0.0", 7070),
		cluster.WithKinds(cluster.NewKind("cart", cartProps)))
	c := cluster.New(sys, cfg)
	c.StartMember()        // protoactor sleeps 1 s here
	defer c.Shutdown(true) // leave gracefully (protoactor waits 2 s)

	reg, _ := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithLogger(logger))
	defer reg.Shutdown(ctx) // runs first: the registry stops before the member leaves

	target, err := grain.Target(c, "cart", "alice")
	if err != nil {
		panic(err)
	}
	_ = reg.Register(ctx, "cart/alice", target, tripwire.Settings{Threshold: 3, OpenTimeout: time.Second})
	cart, err := tripwire.Key[*wrapperspb.StringValue, *wrapperspb.StringValue](reg, "cart/alice").Call(ctx, wrapperspb.String("get"))
	fmt.Println(cart, err)
}

// One breaker per grain, made on demand.
// (Compiled, not run.)
func ExampleTarget_factory() {
	var c *cluster.Cluster // the member's cluster, as in ExampleTarget
	sys := actor.NewActorSystem()

	reg, _ := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithFactory(func(ctx context.Context, key string) (tripwire.Target, tripwire.Settings, error) {
		t, err := grain.Target(c, "cart", strings.TrimPrefix(key, "cart/"))
		return t, tripwire.Settings{Threshold: 3}, err
	}))
	defer reg.Shutdown(context.Background())
}

// Breakers in front of grains that probe as soon as the cluster drops the
// member their grain lived on, instead of after their OpenTimeout.
// (Compiled, not run.)
func ExampleFailover() {
	var c *cluster.Cluster // the member's cluster, as in ExampleTarget
	sys := actor.NewActorSystem()

	ctx := context.Background()
	reg, _ := tripwire.Start(tripwire.WithActorSystem(sys))
	defer reg.Shutdown(ctx)
	failover, err := grain.NewFailover(reg, c)
	if err != nil {
		panic(err)
	}
	defer failover.Stop()

	target, err := failover.Target("cart/alice", "cart", "alice") // the key it is registered under
	if err != nil {
		panic(err)
	}
	_ = reg.Register(ctx, "cart/alice", target, tripwire.Settings{Threshold: 3})
}

// Failover targets made on demand.
// (Compiled, not run.)
func ExampleFailover_factory() {
	var c *cluster.Cluster // the member's cluster, as in ExampleTarget
	sys := actor.NewActorSystem()

	var failover *grain.Failover // set before the first call
	reg, _ := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithFactory(func(ctx context.Context, key string) (tripwire.Target, tripwire.Settings, error) {
		t, err := failover.Target(key, "cart", strings.TrimPrefix(key, "cart/"))
		return t, tripwire.Settings{Threshold: 3}, err
	}))
	defer reg.Shutdown(context.Background())
	failover, _ = grain.NewFailover(reg, c)
	defer failover.Stop()
}
