package remoting_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"go.uber.org/zap"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/remoting"
)

func ExampleOptions() {
	// Every node: ping after 10 s of silence, give up after 5 s more.
	opts, err := remoting.Options(remoting.Config{Keepalive: remoting.Keepalive{Time: 10 * time.Second, Timeout: 5 * time.Second}})
	if err != nil {
		panic(err)
	}
	cfg := remote.Configure("127.0.0.1", 7070, opts...) // then remote.NewRemote(sys, cfg).Start()
	fmt.Println(len(cfg.DialOptions), len(cfg.ServerOptions))

	// gRPC's client side never pings more often than every 10 s.
	_, err = remoting.Options(remoting.Config{Keepalive: remoting.Keepalive{Time: time.Second}})
	fmt.Println(errors.Is(err, remoting.ErrInvalidConfig))
	// Output:
	// 5 4
	// true
}

// A breaker in front of an actor on another node, over a remote with
// mutual TLS, keepalive and the guard, whose breakers probe as soon as the
// node is reachable again. (Compiled, not run: it starts protoactor's
// remote.)
func Example_breakerInFrontOfARemoteActor() {
	ctx, logger := context.Background(), zap.NewNop()

	sys := actor.NewActorSystem()
	tlsCfg, err := remoting.LoadMutualTLS("node.pem", "node-key.pem", "ca.pem") // this node's certificate, and the cluster's CA
	if err != nil {
		panic(err)
	}
	opts, err := remoting.Options(remoting.Config{TLS: tlsCfg, Logger: logger}) // keepalive: the defaults
	if err != nil {
		panic(err)
	}
	remote.NewRemote(sys, remote.Configure("10.0.0.5", 7070, opts...)).Start() // this node: replies come back here
	reg, _ := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithLogger(logger))
	stop, _ := remoting.ProbeOnReconnect(reg, sys) // probe as soon as a node is reachable again
	defer stop()

	pid := actor.NewPID("10.0.0.7:7070", "weather") // a name: found again after the node restarts
	_ = reg.Register(ctx, "weather", tripwire.ActorTarget(pid), tripwire.Settings{})

	weather := tripwire.Key[*wrapperspb.StringValue, *wrapperspb.StringValue](reg, "weather")
	v, err := weather.Call(ctx, wrapperspb.String("paris"))
	fmt.Println(v, err)
}

// A node that serves an actor to other machines, set up as
// docs/beyond-one-machine.md recommends: mutual TLS, keepalive and the
// guard, and ShedExpired in front of the actor. (Compiled, not run: it
// starts protoactor's remote.)
func Example_nodeServingAnActor() {
	logger := zap.NewNop()
	var refused atomic.Int64

	sys := actor.NewActorSystem()
	tlsCfg, err := remoting.LoadMutualTLS("/etc/weather/node.pem", "/etc/weather/node-key.pem", "/etc/weather/ca.pem")
	if err != nil {
		panic(err)
	}
	opts, err := remoting.Options(remoting.Config{
		TLS:       tlsCfg,
		Logger:    logger,                                    // what the guard refuses, at most 10 lines a second
		OnRefused: func(remoting.Refusal) { refused.Add(1) }, // and a count, for a metric
	})
	if err != nil {
		panic(err)
	}
	remote.NewRemote(sys, remote.Configure("10.0.0.7", 7070, opts...)).Start()

	shed, err := remoting.ShedExpired(remoting.ShedConfig{}) // drop the calls whose callers have given up
	if err != nil {
		panic(err)
	}
	props := actor.PropsFromFunc(weather, actor.WithReceiverMiddleware(shed))
	_, _ = sys.Root.SpawnNamed(props, "weather")
}

// weather answers each request with its message.
func weather(c actor.Context) {
	if _, ok := c.Message().(*wrapperspb.StringValue); ok {
		c.Respond(c.Message())
	}
}
