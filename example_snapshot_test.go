package tripwire_test

import (
	"context"
	"fmt"

	"github.com/tripwire-go/tripwire"
)

// Snapshot reads a breaker's own view of its key; the control methods move
// it, and Crash makes it panic, for resilience tests.
func ExampleRegistry_Snapshot() {
	reg, err := tripwire.Start(nil)
	if err != nil {
		panic(err)
	}
	defer reg.Shutdown(context.Background())
	ok := func(context.Context, any) (any, error) { return "ok", nil }
	if err := reg.Register("billing", tripwire.FuncTarget(ok), tripwire.Settings{}); err != nil {
		panic(err)
	}

	snap, _ := reg.Snapshot("billing") // State, Failures, OpenedAt, RetryAt, InFlight, Restarts
	fmt.Println(snap.State, snap.Failures, snap.Restarts)
	_ = reg.ForceOpen("billing") // open until ForceClose or Reset
	_ = reg.Reset("billing")     // closed, counts cleared
	_ = reg.Crash("billing")     // fault injection: the breaker panics; returns once it is back
	fmt.Println(reg.Keys())
	after, _ := reg.Snapshot("billing")
	fmt.Println(after.State, after.Restarts)
	// Output:
	// closed 0 0
	// [billing]
	// closed 1
}
