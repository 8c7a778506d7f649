package demo

import (
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// dependencyActor answers every request with its message after latency.
// Replies come from a timer, so the actor never blocks on one.
type dependencyActor struct {
	latency time.Duration
	calls   *atomic.Int64
}

// DependencyProps returns the props of the built-in dependency as an actor:
// it answers each request with the request's message after latency. The
// tripwire node command serves it to other processes.
func DependencyProps(latency time.Duration, calls *atomic.Int64) *actor.Props {
	if calls == nil {
		calls = new(atomic.Int64)
	}
	return actor.PropsFromProducer(func() actor.Actor {
		return &dependencyActor{latency: latency, calls: calls}
	})
}

func (a *dependencyActor) Receive(ctx actor.Context) {
	sender := ctx.Sender()
	if sender == nil {
		return // system messages, and plain sends nobody waits for
	}
	msg := ctx.Message()
	a.calls.Add(1)
	if a.latency <= 0 {
		ctx.Respond(msg)
		return
	}
	sys := ctx.ActorSystem()
	time.AfterFunc(a.latency, func() { sys.Root.Send(sender, msg) })
}
