package remoting_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/remoting"
)

// books is the actor target of ExampleShedExpired: it tells taken of each
// entry it starts to post, and holds its turn until gate gives way.
type books struct {
	taken chan string
	gate  chan struct{}
}

func (l *books) Receive(c actor.Context) {
	if entry, ok := c.Message().(string); ok {
		l.taken <- entry
		<-l.gate
		c.Respond("posted " + entry)
	}
}

// ShedExpired drops a call that timed out while it waited in the target's
// mailbox, instead of running it late for a caller that already has
// ErrTimeout.
func ExampleShedExpired() {
	sys := actor.NewActorSystem()
	defer sys.Shutdown()
	reg, _ := tripwire.Start(tripwire.WithActorSystem(sys))
	defer reg.Shutdown(context.Background())
	l := &books{taken: make(chan string, 2), gate: make(chan struct{})}
	newLedger := func() actor.Actor { return l }
	dropped := make(chan string, 1)

	shed, err := remoting.ShedExpired(remoting.ShedConfig{
		OnShed: func(msg any, _ time.Time) { dropped <- fmt.Sprint(msg) },
	})
	if err != nil {
		panic(err)
	}
	props := actor.PropsFromProducer(newLedger, actor.WithReceiverMiddleware(shed))
	pid := sys.Root.Spawn(props)
	_ = reg.Register(context.Background(), "ledger", tripwire.ActorTarget(pid), tripwire.Settings{CallTimeout: time.Second})

	// The ledger is busy with a first entry; a second one waits behind it
	// and its caller gives up after 50 ms.
	first := make(chan any)
	go func() { v, _ := reg.Call(context.Background(), "ledger", "rent"); first <- v }()
	fmt.Println("taken:", <-l.taken)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = reg.Call(ctx, "ledger", "refund")
	fmt.Println("refund:", errors.Is(err, tripwire.ErrTimeout))

	close(l.gate) // the ledger gets on with its work
	fmt.Println(<-first)
	fmt.Println("shed:", <-dropped, "| taken since:", len(l.taken))
	// Output:
	// taken: rent
	// refund: true
	// posted rent
	// shed: refund | taken since: 0
}

// A caller outside Tripwire puts its own deadline in the header, and waits
// no longer than that.
func ExampleDeadlineEnvelope() {
	sys := actor.NewActorSystem()
	defer sys.Shutdown()
	shed, _ := remoting.ShedExpired(remoting.ShedConfig{})
	echo := func(c actor.Context) {
		if s, ok := c.Message().(string); ok {
			c.Respond(s)
		}
	}
	pid := sys.Root.Spawn(actor.PropsFromFunc(echo, actor.WithReceiverMiddleware(shed)))
	msg := "ping"

	f := actor.NewFuture(sys, time.Second)
	env, err := remoting.DeadlineEnvelope(msg, f.PID(), time.Now().Add(time.Second))
	if err != nil {
		panic(err)
	}
	sys.Root.Send(pid, env) // Send: RequestFuture would wrap env in an envelope of its own
	v, err := f.Result()
	fmt.Println(v, err)
	// Output: ping <nil>
}
