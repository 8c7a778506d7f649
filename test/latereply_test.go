package test

import (
	"context"
	"fmt"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// echoer is an actor target that answers each request with its message, and
// before answering request n also answers request n-1 a second time, through
// the sender it kept from then: a late, duplicate reply.
type echoer struct{ last *actor.PID }

func (a *echoer) Receive(ctx actor.Context) {
	n, ok := ctx.Message().(int)
	if !ok {
		return
	}
	if a.last != nil {
		ctx.Send(a.last, fmt.Sprintf("late answer to %d", n-1))
	}
	a.last = ctx.Sender()
	ctx.Respond(fmt.Sprintf("answer to %d", n))
}

func TestLateDuplicateReplyNeverReachesALaterCall(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an actor target that answers every request twice, the second
		// time just before it answers the next request
		pid := e.Sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &echoer{} }))
		testkit.Register(t, e.Reg, "echo", tripwire.ActorTarget(pid), tripwire.Settings{})

		// When calls are made one after another (each may reuse the memory
		// of the one before)
		for n := range 50 {
			v, err := e.Reg.Call(context.Background(), "echo", n)

			// Then each gets its own answer, never the late one meant for
			// the call before it
			if want := fmt.Sprintf("answer to %d", n); err != nil || v != want {
				t.Fatalf("call %d = %v, %v; want %q", n, v, err, want)
			}
		}
	})
}
