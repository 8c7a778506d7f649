package remotekeepalive_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"go.uber.org/zap"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/remotekeepalive"
)

func ExampleOptions() {
	// Every node: ping after 10 s of silence, give up after 5 s more.
	opts, err := remotekeepalive.Options(remotekeepalive.Config{Time: 10 * time.Second, Timeout: 5 * time.Second})
	if err != nil {
		panic(err)
	}
	cfg := remote.Configure("127.0.0.1", 7070, opts...) // then remote.NewRemote(sys, cfg).Start()
	fmt.Println(len(cfg.DialOptions), len(cfg.ServerOptions))

	// gRPC's client side never pings more often than every 10 s.
	_, err = remotekeepalive.Options(remotekeepalive.Config{Time: time.Second})
	fmt.Println(errors.Is(err, remotekeepalive.ErrInvalidConfig))
	// Output:
	// 3 2
	// true
}

// A breaker in front of an actor on another node, over a remote with
// keepalive. (Compiled, not run: it starts protoactor's remote.)
func Example_breakerInFrontOfARemoteActor() {
	ctx, logger := context.Background(), zap.NewNop()

	sys := actor.NewActorSystem()
	keepalive, _ := remotekeepalive.Options(remotekeepalive.Config{})               // ping after 10 s of silence
	remote.NewRemote(sys, remote.Configure("10.0.0.5", 7070, keepalive...)).Start() // this node: replies come back here
	reg, _ := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithLogger(logger))

	pid := actor.NewPID("10.0.0.7:7070", "weather") // a name: found again after the node restarts
	_ = reg.Register(ctx, "weather", tripwire.ActorTarget(pid), tripwire.Settings{})

	weather := tripwire.Key[*wrapperspb.StringValue, *wrapperspb.StringValue](reg, "weather")
	v, err := weather.Call(ctx, wrapperspb.String("paris"))
	fmt.Println(v, err)
}
