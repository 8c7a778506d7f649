package remoting_test

import (
	"context"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/remoting"
)

// An actor on another machine that neither sheds nor reads its calls'
// deadlines can take them without the DeadlineHeader, and each call
// allocates less. The breaker still answers ErrTimeout at the deadline,
// and an actor on this machine still reads it, from the call's sender.
func ExampleWithoutDeadlineHeader() {
	system := actor.NewActorSystem()
	defer system.Shutdown()
	reg, _ := tripwire.Start(tripwire.WithActorSystem(system))
	defer reg.Shutdown(context.Background())
	pid := system.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if _, ok := c.Message().(string); ok {
			_, inHeader := remoting.CallDeadline(c.MessageHeader(), nil)
			_, known := remoting.CallDeadline(c.MessageHeader(), c.Sender())
			c.Respond([2]bool{inHeader, known})
		}
	}))

	counter := remoting.WithoutDeadlineHeader(tripwire.ActorTarget(pid))
	_ = reg.Register(context.Background(), "counter", counter, tripwire.Settings{})
	found, err := reg.Call(context.Background(), "counter", "add")
	fmt.Println("deadline in the header, known:", found, err)
	// Output: deadline in the header, known: [false true] <nil>
}

// An actor whose own code reads the DeadlineHeader, or that forwards its
// calls to another machine, takes the header on local calls too.
func ExampleWithDeadlineHeader() {
	system := actor.NewActorSystem()
	defer system.Shutdown()
	reg, _ := tripwire.Start(tripwire.WithActorSystem(system))
	defer reg.Shutdown(context.Background())
	pid := system.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if _, ok := c.Message().(string); ok {
			c.Respond(c.MessageHeader().Get(remoting.DeadlineHeader) != "")
		}
	}))

	ledger := remoting.WithDeadlineHeader(tripwire.ActorTarget(pid))
	_ = reg.Register(context.Background(), "ledger", ledger, tripwire.Settings{})
	inHeader, err := reg.Call(context.Background(), "ledger", "post")
	fmt.Println("deadline in the header:", inHeader, err)
	// Output: deadline in the header: true <nil>
}
