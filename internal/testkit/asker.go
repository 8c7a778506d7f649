package testkit

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
)

// Asker is an actor that calls Request for every message it is told to send
// and hands every *tripwire.Reply it receives, and every refusal, to the
// test.
type Asker struct {
	reg     *tripwire.Registry
	Replies chan *tripwire.Reply
	Refused chan error
}

// RequestAll tells an Asker to Request each message from Key.
type RequestAll struct {
	Key  string
	Msgs []any
}

// NewAsker spawns an Asker on e's registry.
func NewAsker(e *Env) (*actor.PID, *Asker) {
	a := &Asker{reg: e.Reg, Replies: make(chan *tripwire.Reply, 1000), Refused: make(chan error, 1000)}
	return e.Sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return a })), a
}

// Receive implements actor.Actor.
func (a *Asker) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *RequestAll:
		for _, msg := range m.Msgs {
			if err := a.reg.Request(ctx, m.Key, msg); err != nil {
				a.Refused <- err
			}
		}
	case *tripwire.Reply:
		a.Replies <- m
	}
}

// Received returns every reply the Asker has got so far, once every
// goroutine of the bubble is blocked.
func (a *Asker) Received() []*tripwire.Reply { return Drain(a.Replies) }
