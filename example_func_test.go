package tripwire_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/tripwire-go/tripwire"
)

// Func protects a typed function: a message of another type is refused
// before the function runs, and never counts against the circuit.
func ExampleFunc() {
	ctx := context.Background()
	reg, _ := tripwire.Start()
	defer reg.Shutdown(ctx)

	price := func(_ context.Context, q Quote) (int, error) { return q.Cents * 2, nil }
	if err := reg.Register(ctx, "prices", tripwire.Func(price), tripwire.Settings{Threshold: 1}); err != nil {
		panic(err)
	}
	cents, err := tripwire.Key[Quote, int](reg, "prices").Call(ctx, Quote{Symbol: "ACME", Cents: 21})
	fmt.Println(cents, err)
	_, err = reg.Call(ctx, "prices", "ACME")
	fmt.Println(errors.Is(err, tripwire.ErrInvalidMessage))
	state, _ := reg.State("prices")
	fmt.Println(state)
	// Output:
	// 42 <nil>
	// true
	// closed
}

// CallWith makes a key's breaker on its first call with the factory it is
// given — how an adapter keeps one breaker per host without a registry-wide
// factory.
func ExampleRegistry_CallWith() {
	ctx := context.Background()
	reg, _ := tripwire.Start()
	defer reg.Shutdown(ctx)

	perHost := func(_ context.Context, key string) (tripwire.Target, tripwire.Settings, error) {
		return tripwire.Func(func(context.Context, any) (any, error) { return "hello from " + key, nil }),
			tripwire.Settings{Threshold: 5}, nil
	}
	for range 2 {
		v, err := reg.CallWith(ctx, "api.example.com", "GET /", perHost)
		fmt.Println(v, err)
	}
	fmt.Println(reg.Keys())
	// Output:
	// hello from api.example.com <nil>
	// hello from api.example.com <nil>
	// [api.example.com]
}

// ProbeNow lets probes through at once, when something outside knows the
// dependency is back before the circuit's recovery timer does.
func ExampleRegistry_ProbeNow() {
	ctx := context.Background()
	reg, _ := tripwire.Start()
	defer reg.Shutdown(ctx)

	var up bool
	target := tripwire.Func(func(context.Context, any) (any, error) {
		if !up {
			return nil, errors.New("down")
		}
		return "up", nil
	})
	_ = reg.Register(ctx, "search", target, tripwire.Settings{Threshold: 1})
	_, _ = reg.Call(ctx, "search", "q")
	state, _ := reg.State("search")
	fmt.Println(state)

	up = true // say a cluster reports the service back
	_ = reg.ProbeNow(ctx, "search")
	state, _ = reg.State("search")
	fmt.Println(state)
	v, err := reg.Call(ctx, "search", "q")
	state, _ = reg.State("search")
	fmt.Println(v, err, state)
	// Output:
	// open
	// half_open
	// up <nil> closed
}
