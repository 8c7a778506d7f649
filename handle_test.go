package tripwire_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

type receipt struct{ cents int }

// Regression (issue 41): a caller that asked for answers of a type the
// key's function can never return charged the card every time and then got
// ErrUnexpectedReply. A Handle whose Resp the target cannot give is refused
// before the target runs, counting neither way; one it may give is served.
func TestAHandleTheTargetCannotAnswerIsRefusedBeforeItRuns(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		var charged atomic.Int32
		charge := func(_ context.Context, cents int) (*receipt, error) {
			charged.Add(1)
			return &receipt{cents}, nil
		}
		var stringers atomic.Int32
		stringer := func(_ context.Context, n int) (fmt.Stringer, error) {
			stringers.Add(1)
			return nil, nil
		}
		testkit.Register(t, e.Reg, "card", tripwire.Func(charge), tripwire.Settings{Threshold: 1})
		testkit.Register(t, e.Reg, "stringer", tripwire.Func(stringer), tripwire.Settings{})

		// A Resp the function never returns: refused, five times out of five, unrun
		for range 5 {
			_, err := tripwire.Key[int, receipt](e.Reg, "card").Call(ctx, 10) // a receipt, not a *receipt
			if !errors.Is(err, tripwire.ErrUnexpectedReply) {
				t.Fatalf("Call = %v; want ErrUnexpectedReply", err)
			}
		}
		if n := charged.Load(); n != 0 {
			t.Fatalf("the card was charged %d times for calls refused", n)
		}
		if s := testkit.Snapshot(t, e.Reg, "card"); s.Stats.Total.Calls != 0 || s.Failures != 0 {
			t.Fatalf("refused calls counted: %+v, %d failures", s.Stats.Total, s.Failures)
		}

		// The right Resp, an interface it satisfies, or any: served
		r, err := tripwire.Key[int, *receipt](e.Reg, "card").Call(ctx, 10)
		if err != nil || r.cents != 10 {
			t.Fatalf("Call = %v, %v", r, err)
		}
		if _, err := tripwire.Key[int, any](e.Reg, "card").Call(ctx, 20); err != nil {
			t.Fatalf("Key[int, any]: %v", err)
		}
		// An interface answer may be any type implementing it: not refused
		if _, err := tripwire.Key[int, fmt.Stringer](e.Reg, "stringer").Call(ctx, 1); err != nil {
			t.Fatalf("Key[int, fmt.Stringer]: %v", err)
		}
		if _, err := tripwire.Key[int, error](e.Reg, "stringer").Call(ctx, 1); err != nil {
			t.Fatalf("an interface answer was refused for another interface: %v", err)
		}
		if n := stringers.Load(); n != 2 {
			t.Fatalf("the stringer ran %d times, want 2", n)
		}
		// A Req the function does not take is refused as bad input
		if _, err := tripwire.Key[string, *receipt](e.Reg, "card").Call(ctx, "ten"); !errors.Is(err, tripwire.ErrInvalidMessage) {
			t.Fatalf("Key[string, *receipt] = %v; want ErrInvalidMessage", err)
		}
		if n := charged.Load(); n != 2 {
			t.Fatalf("the card was charged %d times, want 2", n)
		}
	})
}

// An actor target declares no answer type: the call runs, and an answer of
// another type than Resp is ErrUnexpectedReply afterwards.
func TestAHandleOfAnActorTargetChecksTheAnswerItGets(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		pid, err := e.Sys.Root.SpawnNamed(actor.PropsFromFunc(func(c actor.Context) {
			if n, ok := c.Message().(int); ok {
				c.Respond(n * 2)
			}
		}), "doubler")
		if err != nil {
			t.Fatal(err)
		}
		testkit.Register(t, e.Reg, "doubler", tripwire.ActorTarget(pid), tripwire.Settings{})
		ctx := context.Background()
		if v, err := tripwire.Key[int, int](e.Reg, "doubler").Call(ctx, 21); err != nil || v != 42 {
			t.Fatalf("Call = %v, %v; want 42", v, err)
		}
		if _, err := tripwire.Key[int, string](e.Reg, "doubler").Call(ctx, 21); !errors.Is(err, tripwire.ErrUnexpectedReply) {
			t.Fatalf("Call = %v; want ErrUnexpectedReply", err)
		}
	})
}

// The zero Handle, and one of a nil registry, refuse every call.
func TestAZeroHandleRefusesItsCalls(t *testing.T) {
	var zero tripwire.Handle[int, int]
	if _, err := zero.Call(context.Background(), 1); !errors.Is(err, tripwire.ErrInvalidOption) {
		t.Fatalf("zero Handle: %v", err)
	}
	if _, err := tripwire.Key[int, int](nil, "k").Call(context.Background(), 1); !errors.Is(err, tripwire.ErrInvalidOption) {
		t.Fatalf("Handle of a nil registry: %v", err)
	}
}
