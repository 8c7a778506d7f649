// protoactor's hello world: spawn one actor and ask it.
package main

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

func main() {
	sys := actor.NewActorSystem()
	pid := sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if s, ok := c.Message().(string); ok {
			c.Respond(s)
		}
	}))
	fmt.Println(sys.Root.RequestFuture(pid, "hi", time.Second).Result())
}
