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
	reg, err := tripwire.Start() // no WithActorSystem: Tripwire makes its own
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
	ctx := context.Background()
	if err := reg.Register(ctx, "billing", tripwire.Func(charge), tripwire.Settings{Threshold: 2}); err != nil {
		panic(err)
	}

	billing := tripwire.Key[int, string](reg, "billing") // typed: billing.Call(ctx, "ten") does not compile
	receipt, err := billing.Call(ctx, 10)
	fmt.Println(receipt, err)
	_, err = reg.Call(ctx, "billing", "ten") // the untyped door: refused before charge runs
	fmt.Println(errors.Is(err, tripwire.ErrInvalidMessage))

	down.Store(true)
	for range 3 {
		_, err := billing.Call(ctx, 20)
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
	ctx := context.Background()
	system := actor.NewActorSystem()
	defer system.Shutdown()
	_, err := system.Root.SpawnNamed(actor.PropsFromFunc(func(c actor.Context) {
		if msg, ok := c.Message().(string); ok {
			c.Respond("echo: " + msg)
		}
	}), "echo")
	if err != nil {
		panic(err)
	}

	reg, err := tripwire.Start(tripwire.WithActorSystem(system))
	if err != nil {
		panic(err)
	}
	defer reg.Shutdown(ctx)
	target := tripwire.ActorTarget(system.NewLocalPID("echo"))
	if err := reg.Register(ctx, "echo", target, tripwire.Settings{CallTimeout: time.Second}); err != nil {
		panic(err)
	}

	v, err := reg.Call(ctx, "echo", "hello")
	fmt.Println(v, err)
	// Output: echo: hello <nil>
}

// Quote is what the "quotes" target of ExampleKey answers.
type Quote struct {
	Symbol string
	Cents  int
}

// Key gives a key a typed door: its calls take a Req and answer a Resp, so
// a wrong type is a compile error; a Resp the key's function can never
// answer is refused before the function runs.
func ExampleKey() {
	reg, err := tripwire.Start()
	if err != nil {
		panic(err)
	}
	defer reg.Shutdown(context.Background())
	var calls atomic.Int32
	quote := func(_ context.Context, symbol string) (*Quote, error) {
		calls.Add(1)
		return &Quote{Symbol: symbol, Cents: 4200}, nil
	}
	ctx := context.Background()
	if err := reg.Register(ctx, "quotes", tripwire.Func(quote), tripwire.Settings{}); err != nil {
		panic(err)
	}

	quotes := tripwire.Key[string, *Quote](reg, "quotes")
	q, err := quotes.Call(ctx, "ACME")
	fmt.Println(q.Symbol, q.Cents, err)

	_, err = tripwire.Key[string, string](reg, "quotes").Call(ctx, "ACME")
	fmt.Println(errors.Is(err, tripwire.ErrUnexpectedReply), "| quote ran", calls.Load(), "time")
	// Output:
	// ACME 4200 <nil>
	// true | quote ran 1 time
}
