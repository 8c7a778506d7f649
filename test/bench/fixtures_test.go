package bench

import (
	"context"
	"errors"
	"testing"

	"github.com/sony/gobreaker/v2"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

// The benchmarks are only comparable if each setup is in the state it
// claims; these tests check every setup once, so `go test` catches a broken
// fixture without running the benchmarks.

func TestClosedSetupsAnswerTheMessage(t *testing.T) {
	for name, setup := range map[string]func(testing.TB) *tripwire.Registry{
		"actor": setupClosedActor, "func": setupClosedFunc,
	} {
		t.Run(name, func(t *testing.T) {
			// Given a closed breaker in front of an echo target
			reg := setup(t)
			// When it is called
			v, err := reg.Call(context.Background(), "echo", msg)
			// Then the message comes back and the breaker stays closed
			if err != nil || v != any(msg) {
				t.Fatalf("got (%v, %v), want (%v, nil)", v, err, msg)
			}
			if st, err := reg.State("echo"); err != nil || st != state.Closed {
				t.Fatalf("state (%v, %v), want closed", st, err)
			}
		})
	}
}

func TestRequestFutureSetupAnswersTheMessage(t *testing.T) {
	// Given an echo actor
	sys := testkit.NewSystem(t)
	pid := spawnEcho(t, sys)
	// When it is asked directly and through a closed gobreaker
	v, err := ask(sys, pid)
	cb := gobreaker.NewCircuitBreaker[any](gobreaker.Settings{Name: "echo"})
	gv, gerr := cb.Execute(func() (any, error) { return ask(sys, pid) })
	// Then both return the message
	if err != nil || v != any(msg) {
		t.Fatalf("RequestFuture: got (%v, %v), want (%v, nil)", v, err, msg)
	}
	if gerr != nil || gv != any(msg) {
		t.Fatalf("gobreaker: got (%v, %v), want (%v, nil)", gv, gerr, msg)
	}
}

func TestOpenSetupsFailFast(t *testing.T) {
	// Given a tripped Tripwire breaker and a tripped gobreaker
	reg := setupOpen(t)
	cb := setupGobreakerOpen(t)
	// When each is called
	_, err := reg.Call(context.Background(), "down", msg)
	_, gerr := cb.Execute(func() (any, error) { return msg, nil })
	// Then both refuse at once
	if !errors.Is(err, tripwire.ErrOpen) {
		t.Fatalf("tripwire: got %v, want ErrOpen", err)
	}
	if !errors.Is(gerr, gobreaker.ErrOpenState) {
		t.Fatalf("gobreaker: got %v, want ErrOpenState", gerr)
	}
}
