package tripwire_test

import (
	"context"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
)

// An actor that neither sheds nor reads its calls' deadlines can take them
// without the DeadlineHeader, and each call allocates less. The breaker
// still answers ErrTimeout at the deadline.
func ExampleWithoutDeadlineHeader() {
	system := tripwire.NewActorSystem(nil)
	defer system.Shutdown()
	reg, _ := tripwire.Start(system)
	defer reg.Shutdown(context.Background())
	pid := system.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if _, ok := c.Message().(string); ok {
			_, dated := tripwire.CallDeadline(c.MessageHeader())
			c.Respond(dated)
		}
	}))

	counter := tripwire.WithoutDeadlineHeader(tripwire.ActorTarget(pid))
	_ = reg.Register("counter", counter, tripwire.Settings{})
	dated, err := reg.Call(context.Background(), "counter", "add")
	fmt.Println("deadline in the header:", dated, err)
	// Output: deadline in the header: false <nil>
}
