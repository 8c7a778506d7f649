package policies

import "github.com/asynkron/protoactor-go/actor"

// actorFunc makes an actor of a function.
type actorFunc func(actor.Context)

func (f actorFunc) Receive(c actor.Context) { f(c) }
