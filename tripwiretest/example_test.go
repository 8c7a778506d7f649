package tripwiretest_test

import (
	"context"
	"fmt"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// A dependency that fails twice trips a breaker with threshold 2. A crashed
// breaker comes back closed, so the healed dependency is called again.
func Example() {
	ctx := context.Background()
	reg, _ := tripwire.Start()
	defer reg.Shutdown(ctx)

	billing := tripwiretest.New(tripwiretest.Seed(1)) // seeded: FailRate and HangRate repeat
	_ = reg.Register(ctx, "billing", billing.Func(nil), tripwire.Settings{Threshold: 2})

	_ = billing.FailNext(2)
	for i := 1; i <= 3; i++ {
		_, err := reg.Call(ctx, "billing", i)
		fmt.Println(i, err)
	}

	_ = tripwiretest.Crash(ctx, reg, "billing") // returns once a fresh breaker serves the key
	v, err := reg.Call(ctx, "billing", 4)
	fmt.Println(v, err)
	fmt.Printf("%+v\n", billing.Counts())
	// Output:
	// 1 tripwiretest: injected fault (call 1)
	// 2 tripwiretest: injected fault (call 2)
	// 3 tripwire: circuit open: billing, retry after 30s
	// 4 <nil>
	// {Calls:3 Failures:2 Panics:0 Hangs:0 Downs:0}
}

// Each call's message can script that call alone: an Op answers, fails,
// panics, waits or hangs as it says, after the script's own faults.
func ExampleOp() {
	ctx := context.Background()
	reg, _ := tripwire.Start()
	defer reg.Shutdown(ctx)

	db := tripwiretest.New()
	_ = reg.Register(ctx, "db", db.Func(nil), tripwire.Settings{Threshold: 5})

	for _, op := range []tripwiretest.Op{
		{Label: "read"},
		{Label: "write", Fail: true},
		{Value: 42},
		{Panic: true},
		{Fail: true, Value: 1}, // Fail takes no Value
	} {
		v, err := reg.Call(ctx, "db", op)
		fmt.Println(v, err)
	}
	fmt.Printf("%+v, peak %d\n", db.Counts(), db.Peak())
	// Output:
	// done:read <nil>
	// <nil> write: tripwiretest: injected fault (call 2)
	// 42 <nil>
	// <nil> tripwire: target panicked: tripwiretest: injected panic (call 4)
	// <nil> tripwiretest: invalid argument: Op: Fail takes no Err or Value
	// {Calls:5 Failures:1 Panics:1 Hangs:0 Downs:0}, peak 1
}
