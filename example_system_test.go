package tripwire_test

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"
	"go.uber.org/zap"
	"go.uber.org/zap/exp/zapslog"

	"github.com/tripwire-go/tripwire"
)

// A program that has an actor system of its own — for its actor targets,
// remote or a cluster — starts the registry on it. protoactor logs through
// log/slog; its logger factory sends them to the program's zap logger.
func ExampleWithActorSystem() {
	ctx, zl := context.Background(), zap.NewNop()
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(s *actor.ActorSystem) *slog.Logger {
		return slog.New(zapslog.NewHandler(zl.Core(), zapslog.WithName("protoactor")))
	}))
	defer system.Shutdown() // after the registry's: Shutdown leaves a system it was given running

	reg, err := tripwire.Start(tripwire.WithActorSystem(system), tripwire.WithLogger(zl))
	if err != nil {
		panic(err)
	}
	defer reg.Shutdown(ctx)

	pid := system.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if city, ok := c.Message().(string); ok {
			c.Respond("sunny in " + city)
		}
	}))
	_ = reg.Register(ctx, "weather", tripwire.ActorTarget(pid), tripwire.Settings{})
	forecast, err := tripwire.Key[string, string](reg, "weather").Call(ctx, "Oslo")
	fmt.Println(forecast, err)
	// Output: sunny in Oslo <nil>
}
