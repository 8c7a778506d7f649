package tripwire_test

import (
	"context"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
)

// refresh tells the weather actor of ExampleRegistry_Request to ask for a city.
type refresh struct{ city string }

// weather is an actor that calls a protected dependency with Request and
// hands every answer to out.
type weather struct {
	reg *tripwire.Registry
	out chan string
}

func (a *weather) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *refresh:
		if err := a.reg.Request(ctx, "weather", m.city); err != nil {
			a.out <- "refused: " + err.Error() // bad input: no Reply will come
		}
	case *tripwire.Reply:
		a.out <- fmt.Sprintf("%s: %v %v", m.Key, m.Value, m.Err)
	}
}

// From inside an actor, Request returns at once; the actor later receives
// exactly one *tripwire.Reply per request, as a message.
func ExampleRegistry_Request() {
	ctx := context.Background()
	system := actor.NewActorSystem()
	defer system.Shutdown()
	reg, err := tripwire.Start(tripwire.WithActorSystem(system))
	if err != nil {
		panic(err)
	}
	defer reg.Shutdown(ctx)
	forecast := func(_ context.Context, city string) (string, error) { return "sunny in " + city, nil }
	if err := reg.Register(ctx, "weather", tripwire.Func(forecast), tripwire.Settings{}); err != nil {
		panic(err)
	}

	a := &weather{reg: reg, out: make(chan string, 1)}
	pid := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return a }))
	system.Root.Send(pid, &refresh{city: "Oslo"})
	fmt.Println(<-a.out)
	// Output: weather: sunny in Oslo <nil>
}
