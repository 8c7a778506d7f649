package regress

import (
	"errors"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/testkit"
)

// errTarget is what the hand-written targets here fail with.
var errTarget = errors.New("target failed")

// actorFunc is an actor target given as a function of its messages; system
// messages (Started, Stopping, ...) never reach it.
type actorFunc func(ctx actor.Context)

func (f actorFunc) Receive(ctx actor.Context) {
	switch ctx.Message().(type) {
	case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
		return
	}
	f(ctx)
}

func spawnActor(e *testkit.Env, f func(ctx actor.Context)) *actor.PID {
	return e.Sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return actorFunc(f) }))
}
