package task

import (
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"
)

// courier takes an ask's reply.
type courier chan any

func (c courier) Deliver(a *Ask) { c <- a.Completion().Value }

func TestAnAsksSenderPIDNamesItsRouterWithoutTheProcessRegistry(t *testing.T) {
	inSystem(t, func(t *testing.T, sys *actor.ActorSystem, p *Pool) {
		// Given an ask held by its target, whose router is then taken out
		// of the process registry (only Close does that, and it marks the
		// router closed too: not here)
		target, got := holdAll(sys), make(courier, 1)
		newAsk(p, &Sender{}, target, "late", time.Time{}, HeaderRemote, got, nil)
		r := p.Replies()
		sys.ProcessRegistry.Remove(&actor.PID{Address: sys.ProcessRegistry.Address, Id: r.id})

		// When the target answers through the sender PID it was given
		sys.Root.Send(target, 1)

		// Then the reply reaches the ask: the PID named the router itself
		select {
		case v := <-got:
			require.Equal(t, "late", v)
		case <-time.After(time.Minute):
			t.Fatal("no reply: the PID looked its process up and found none")
		}
	})
}
