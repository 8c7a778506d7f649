package node

import (
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/tripwire-go/tripwire/remoting"
)

// echo answers every request with its message after latency. Replies come
// from a timer, so the actor never blocks on one.
type echo struct {
	latency time.Duration
	calls   *atomic.Int64
}

// EchoProps returns the props of the echo: it answers each request with the
// request's message after latency, and counts the requests in calls (nil:
// uncounted).
func EchoProps(latency time.Duration, calls *atomic.Int64, opts ...actor.PropsOption) *actor.Props {
	if calls == nil {
		calls = new(atomic.Int64)
	}
	return actor.PropsFromProducer(func() actor.Actor {
		return &echo{latency: latency, calls: calls}
	}, opts...)
}

// SheddingEchoProps is EchoProps behind remoting.ShedExpired: a request
// whose deadline has passed when the echo gets to it is not run, answered
// or counted in calls, but counted in shed (nil: uncounted).
func SheddingEchoProps(latency time.Duration, calls, shed *atomic.Int64) (*actor.Props, error) {
	if shed == nil {
		shed = new(atomic.Int64)
	}
	mw, err := remoting.ShedExpired(remoting.ShedConfig{OnShed: func(any, time.Time) { shed.Add(1) }})
	if err != nil {
		return nil, err
	}
	return EchoProps(latency, calls, actor.WithReceiverMiddleware(mw)), nil
}

func (a *echo) Receive(ctx actor.Context) {
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
