package tripwire_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
)

// A function target that starts failing trips the breaker; from then on
// callers get ErrOpen at once and the function is not called.
func ExampleRegistry_Call() {
	reg, err := tripwire.Start(nil) // nil: Tripwire makes its own actor system
	if err != nil {
		panic(err)
	}
	defer reg.Shutdown(context.Background())

	var down atomic.Bool
	charge := func(_ context.Context, cents int) (string, error) {
		if down.Load() {
			return "", errors.New("billing is down")
		}
		return fmt.Sprintf("charged %d", cents), nil
	}
	if err := reg.Register("billing", tripwire.Func(charge), tripwire.Settings{Threshold: 2}); err != nil {
		panic(err)
	}

	ctx := context.Background()
	receipt, err := tripwire.CallAs[string](ctx, reg, "billing", 10)
	fmt.Println(receipt, err)
	_, err = reg.Call(ctx, "billing", "ten") // not an int: refused before charge runs
	fmt.Println(errors.Is(err, tripwire.ErrInvalidMessage))

	down.Store(true)
	for range 3 {
		_, err := tripwire.CallAs[string](ctx, reg, "billing", 20)
		fmt.Println(err, "| open:", errors.Is(err, tripwire.ErrOpen))
	}
	st, _ := reg.State("billing")
	fmt.Println("state:", st)
	// Output:
	// charged 10 <nil>
	// true
	// billing is down | open: false
	// billing is down | open: false
	// tripwire: circuit open: billing, retry after 30s | open: true
	// state: open
}

// An actor target gets the call's message with a reply address and answers
// with ctx.Respond. A PID made from the actor's name keeps working after the
// actor restarts or is respawned under that name.
func ExampleActorTarget() {
	system := tripwire.NewActorSystem(nil)
	defer system.Shutdown()
	_, err := system.Root.SpawnNamed(actor.PropsFromFunc(func(c actor.Context) {
		if msg, ok := c.Message().(string); ok {
			c.Respond("echo: " + msg)
		}
	}), "echo")
	if err != nil {
		panic(err)
	}

	reg, err := tripwire.Start(system)
	if err != nil {
		panic(err)
	}
	defer reg.Shutdown(context.Background())
	target := tripwire.ActorTarget(system.NewLocalPID("echo"))
	if err := reg.Register("echo", target, tripwire.Settings{CallTimeout: time.Second}); err != nil {
		panic(err)
	}

	v, err := reg.Call(context.Background(), "echo", "hello")
	fmt.Println(v, err)
	// Output: echo: hello <nil>
}

// Quote is what the "quotes" target of ExampleCallAs answers.
type Quote struct {
	Symbol string
	Cents  int
}

// CallAs returns the answer as the type the caller expects, or
// ErrUnexpectedReply.
func ExampleCallAs() {
	reg, err := tripwire.Start(nil)
	if err != nil {
		panic(err)
	}
	defer reg.Shutdown(context.Background())
	quote := func(_ context.Context, symbol any) (any, error) {
		return &Quote{Symbol: symbol.(string), Cents: 4200}, nil
	}
	if err := reg.Register("quotes", tripwire.FuncTarget(quote), tripwire.Settings{}); err != nil {
		panic(err)
	}

	ctx := context.Background()
	q, err := tripwire.CallAs[*Quote](ctx, reg, "quotes", "ACME")
	fmt.Println(q.Symbol, q.Cents, err)

	_, err = tripwire.CallAs[string](ctx, reg, "quotes", "ACME")
	fmt.Println(errors.Is(err, tripwire.ErrUnexpectedReply))
	// Output:
	// ACME 4200 <nil>
	// true
}
