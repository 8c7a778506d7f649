package tripwire_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// The names the policy examples of docs/policies.md use.

// Invoice is what the billing examples charge.
type Invoice struct{ Cents int }

// Response is what the users examples answer.
type Response struct{ Status int }

// ErrNotFound is the users dependency's answer for a user it does not know.
var ErrNotFound = errors.New("not found")

var (
	invoice = &Invoice{Cents: 1200}
	entry   = "ledger entry"
	req     = "request"
	errDown = errors.New("down")
)

// charge bills an invoice; it fails when down is set.
func charge(_ context.Context, msg any) (any, error) {
	if msg.(*Invoice).Cents < 0 {
		return nil, errDown
	}
	return "charged", nil
}

// search, users, ledger and client are other dependencies of the examples.
var (
	search = tripwire.Func(func(context.Context, any) (any, error) { return "results", nil })
	users  = tripwire.Func(func(context.Context, any) (any, error) { return &Response{Status: 200}, nil })
	ledger = tripwire.Func(func(context.Context, any) (any, error) { return "booked", nil })
	client = tripwire.Func(func(context.Context, any) (any, error) { return "ok", nil })
)

// clientFor returns the function calling a tenant's service.
func clientFor(tenant string) func(context.Context, any) (any, error) {
	return func(context.Context, any) (any, error) { return "tenant " + tenant, nil }
}

// scheduleRetry is where a caller would plan its next attempt.
// It prints d in whole seconds, rounded up: the example's output holds
// however long the machine took since the trip (under a second).
func scheduleRetry(d time.Duration) {
	fmt.Println("retry in", (d + time.Second - 1).Truncate(time.Second))
}

// Consecutive failures open the circuit at Threshold.
func ExampleSettings_threshold() {
	ctx := context.Background()
	reg, _ := tripwire.Start()
	defer reg.Shutdown(ctx)
	billing := tripwire.Func(charge) // func(context.Context, any) (any, error)

	_ = reg.Register(ctx, "billing", billing, tripwire.Settings{Threshold: 3, OpenTimeout: 10 * time.Second})
	for range 3 {
		_, _ = reg.Call(ctx, "billing", &Invoice{Cents: -1}) // fails
	}
	// after three failures in a row (a success in between starts the count again):
	_, err := reg.Call(ctx, "billing", invoice)
	fmt.Println(err) // tripwire: circuit open: billing, retry after 10s
	// Output: tripwire: circuit open: billing, retry after 10s
}

// The policies of docs/policies.md, each as Register sees it.
func ExampleSettings_policies() {
	ctx := context.Background()
	reg, _ := tripwire.Start()
	defer reg.Shutdown(ctx)
	billing := tripwire.Func(charge) // func(context.Context, any) (any, error)

	_ = reg.Register(ctx, "search", search, tripwire.Settings{
		Window: state.Window{Size: 20, MinCalls: 10, FailureRate: 0.5},
	})
	_ = reg.Unregister(ctx, "search")
	_ = reg.Register(ctx, "search", search, tripwire.Settings{
		Window: state.Window{Period: time.Minute, Buckets: 6, MinCalls: 20, FailureRate: 0.25},
	})
	_ = reg.Register(ctx, "billing", billing, tripwire.Settings{Threshold: 5, SlowCall: 800 * time.Millisecond})
	_ = reg.Unregister(ctx, "billing")
	_ = reg.Register(ctx, "billing", billing, tripwire.Settings{
		OpenTimeout: time.Second,
		Backoff:     state.Backoff{Multiplier: 2, Max: 10 * time.Second, Jitter: 0.1},
	})
	_ = reg.Unregister(ctx, "billing")
	_ = reg.Register(ctx, "billing", billing, tripwire.Settings{OpenTimeout: 5 * time.Second, HalfOpenProbes: 3})
	_ = reg.Register(ctx, "tenant/7", client, tripwire.Settings{IdleTimeout: 10 * time.Minute})
	fmt.Println(reg.Keys())
	// Output: [billing search tenant/7]
}

// Classify says which results count as failures, successes, or neither.
func ExampleSettings_classify() {
	ctx := context.Background()
	reg, _ := tripwire.Start()
	defer reg.Shutdown(ctx)

	_ = reg.Register(ctx, "users", users, tripwire.Settings{
		Threshold: 5,
		Classify: func(v any, err error) state.Verdict {
			switch {
			case errors.Is(err, ErrNotFound): // the caller's mistake, not the dependency's
				return state.Ignore
			case err != nil:
				return state.Failure
			case v.(*Response).Status >= 500:
				return state.Failure
			}
			return state.Success
		},
	})
	v, err := reg.Call(ctx, "users", "ada")
	fmt.Println(v.(*Response).Status, err)
	// Output: 200 <nil>
}

// MaxInFlight sheds a call beyond the bound at once.
func ExampleSettings_maxInFlight() {
	ctx := context.Background()
	reg, _ := tripwire.Start()
	defer reg.Shutdown(ctx)

	_ = reg.Register(ctx, "ledger", ledger, tripwire.Settings{MaxInFlight: 64})

	_, err := reg.Call(ctx, "ledger", entry)
	if errors.Is(err, tripwire.ErrOverloaded) {
		// 64 calls already in flight on "ledger": shed this one
	}
	fmt.Println(err)
	// Output: <nil>
}

// ForceOpen, ForceClose, Reset and Update move a circuit by hand.
func ExampleRegistry_ForceOpen() {
	ctx := context.Background()
	reg, _ := tripwire.Start()
	defer reg.Shutdown(ctx)
	billing := tripwire.Func(charge) // func(context.Context, any) (any, error)
	_ = reg.Register(ctx, "billing", billing, tripwire.Settings{})

	_ = reg.ForceOpen(ctx, "billing") // open until ForceClose or Reset: no timer, no probe
	_, err := reg.Call(ctx, "billing", invoice)
	fmt.Println(err)
	_ = reg.ForceClose(ctx, "billing") // closed until Reset: forwards every call, counts failures, never opens
	_ = reg.Reset(ctx, "billing")      // closed, counts cleared, forced mode ended
	_ = reg.Update(ctx, "billing", tripwire.Settings{Threshold: 10, CallTimeout: 2 * time.Second})
	v, err := reg.Call(ctx, "billing", invoice)
	fmt.Println(v, err)
	// Output:
	// tripwire: circuit open: billing
	// charged <nil>
}

// A factory creates the breaker of a key on its first call.
func ExampleWithFactory() {
	ctx := context.Background()
	reg, _ := tripwire.Start(tripwire.WithFactory(func(ctx context.Context, key string) (tripwire.Target, tripwire.Settings, error) {
		tenant, ok := strings.CutPrefix(key, "tenant/")
		if !ok {
			return nil, tripwire.Settings{}, fmt.Errorf("no dependency %q", key)
		}
		return tripwire.Func(clientFor(tenant)), tripwire.Settings{IdleTimeout: 10 * time.Minute}, nil
	}))
	v, err := reg.Call(ctx, "tenant/42", req) // creates the breaker of "tenant/42", then calls it
	defer reg.Shutdown(ctx)
	fmt.Println(v, err)
	_, err = reg.Call(ctx, "billing", req)
	fmt.Println(err)
	// Output:
	// tenant 42 <nil>
	// tripwire: factory for "billing": no dependency "billing"
}

// An OpenError says when the circuit is due to half-open.
func ExampleRegistry_Call_openError() {
	ctx := context.Background()
	reg, _ := tripwire.Start()
	defer reg.Shutdown(ctx)
	billing := tripwire.Func(charge) // func(context.Context, any) (any, error)
	_ = reg.Register(ctx, "billing", billing, tripwire.Settings{Threshold: 1, OpenTimeout: 10 * time.Second})
	_, _ = reg.Call(ctx, "billing", &Invoice{Cents: -1})

	_, err := reg.Call(ctx, "billing", invoice)
	var oe *state.OpenError
	if errors.As(err, &oe) && !oe.RetryAt.IsZero() { // errors.Is(err, tripwire.ErrOpen) holds too
		retryIn := time.Until(oe.RetryAt) // the wait that is left (≤ 0 once the timer is due)
		scheduleRetry(retryIn)
	}
	// Output: retry in 10s
}

// weatherProps is the actor the target-down example spawns.
var weatherProps = actor.PropsFromFunc(func(c actor.Context) {
	if s, ok := c.Message().(string); ok {
		c.Respond("sunny in " + s)
	}
})

// The breaker watches an actor target: spawn the target first.
func ExampleActorTarget_watched() {
	ctx := context.Background()
	system := actor.NewActorSystem()
	defer system.Shutdown()
	reg, _ := tripwire.Start(tripwire.WithActorSystem(system))
	defer reg.Shutdown(ctx)

	_, _ = system.Root.SpawnNamed(weatherProps, "weather")                                                     // spawn the target first,
	_ = reg.Register(ctx, "weather", tripwire.ActorTarget(system.NewLocalPID("weather")), tripwire.Settings{}) // then register
	v, err := reg.Call(ctx, "weather", "Oslo")
	fmt.Println(v, err)
	// Output: sunny in Oslo <nil>
}

// WithMaxKeys bounds the key set a factory makes: past it, the key idle
// longest is forgotten, and with none asleep a new key is refused.
func ExampleWithMaxKeys() {
	ctx := context.Background()
	perTenant := func(_ context.Context, key string) (tripwire.Target, tripwire.Settings, error) {
		return tripwire.Func(clientFor(key)), tripwire.Settings{IdleTimeout: 10 * time.Minute}, nil
	}
	reg, _ := tripwire.Start(tripwire.WithFactory(perTenant), tripwire.WithMaxKeys(100_000))
	defer reg.Shutdown(ctx)

	_, err := reg.Call(ctx, "42", req)
	fmt.Println(err, reg.Keys())
	// Output: <nil> [42]
}
