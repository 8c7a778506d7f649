package tripwire_test

import (
	"context"
	"fmt"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// Snapshot reads a breaker's own view of its key; the control methods move
// it, and tripwiretest.Crash makes it panic, for resilience tests.
func ExampleRegistry_Snapshot() {
	ctx := context.Background()
	reg, err := tripwire.Start()
	if err != nil {
		panic(err)
	}
	defer reg.Shutdown(ctx)
	ok := func(context.Context, any) (any, error) { return "ok", nil }
	if err := reg.Register(ctx, "billing", tripwire.Func(ok), tripwire.Settings{}); err != nil {
		panic(err)
	}

	snap, _ := reg.Snapshot(ctx, "billing") // State, Failures, OpenedAt, RetryAt, InFlight, Restarts
	fmt.Println(snap.State, snap.Failures, snap.Restarts)
	_ = reg.ForceOpen(ctx, "billing")           // open until ForceClose or Reset
	_ = reg.Reset(ctx, "billing")               // closed, counts cleared
	_ = tripwiretest.Crash(ctx, reg, "billing") // fault injection: the breaker panics; returns once it is back
	fmt.Println(reg.Keys())
	after, _ := reg.Snapshot(ctx, "billing")
	fmt.Println(after.State, after.Restarts)
	// Output:
	// closed 0 0
	// [billing]
	// closed 1
}
