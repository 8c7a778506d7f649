package policies

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestOpenErrorSaysWhenToRetry(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker that opens for 7s on the first failure
		testkit.Register(t, e.Reg, "payments", tripwiretest.New().Func(nil), tripwire.Settings{
			Threshold: 1, OpenTimeout: 7 * time.Second,
		})

		// When it trips 3s into the test and is called 2s later
		time.Sleep(3 * time.Second)
		if _, err := call(e.Reg, "payments", failOp); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("tripping call: %v", err)
		}
		trippedAt := time.Now()
		time.Sleep(2 * time.Second)
		_, err := call(e.Reg, "payments", okOp)

		// Then the error is ErrOpen and an *OpenError with the key, the
		// moment the probe is due and the open time
		if !errors.Is(err, tripwire.ErrOpen) {
			t.Fatalf("call to open key: %v; want ErrOpen", err)
		}
		var oe *state.OpenError
		if !errors.As(err, &oe) {
			t.Fatalf("errors.As(%v, *OpenError) failed", err)
		}
		if oe.Key != "payments" || !oe.RetryAt.Equal(trippedAt.Add(7*time.Second)) || oe.RetryAfter != 7*time.Second {
			t.Fatalf("OpenError %+v; want key payments, RetryAt %v, RetryAfter 7s", oe, trippedAt.Add(7*time.Second))
		}
		if !strings.Contains(err.Error(), "payments") {
			t.Errorf("error text %q does not name the key", err)
		}
		// and the breaker agrees
		s := testkit.Snapshot(t, e.Reg, "payments")
		if !s.OpenedAt.Equal(trippedAt) || !s.RetryAt.Equal(oe.RetryAt) {
			t.Errorf("Snapshot OpenedAt=%v RetryAt=%v; want %v, %v", s.OpenedAt, s.RetryAt, trippedAt, oe.RetryAt)
		}
		// and the probe is indeed admitted at RetryAt
		time.Sleep(time.Until(oe.RetryAt))
		synctest.Wait() // the recovery timer goes off at this instant too
		v, err := call(e.Reg, "payments", okOp)
		wantOK(t, "probe at RetryAt", v, err)
	})
}

func TestRejectedCallsAllocateNothing(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an open key
		s := tripwiretest.New()
		testkit.Register(t, e.Reg, "hot", s.Func(nil), tripwire.Settings{Threshold: 1, OpenTimeout: time.Hour})
		if _, err := call(e.Reg, "hot", failOp); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("tripping call: %v", err)
		}
		wantState(t, e.Reg, "hot", state.Open)
		ctx := context.Background()
		var msg any = okOp
		rejected := 0

		// When a flood of 10,000 calls hits it
		allocs := testing.AllocsPerRun(10_000, func() {
			if _, err := e.Reg.Call(ctx, "hot", msg); errors.Is(err, tripwire.ErrOpen) {
				rejected++
			}
		})

		// Then every call is rejected without reaching the target, and
		// allocates nothing
		if rejected != 10_001 { // AllocsPerRun runs the function once more to warm up
			t.Fatalf("%d calls rejected; want 10001", rejected)
		}
		if s.Counts().Calls != 1 {
			t.Fatalf("target reached %d times; want 1", s.Counts().Calls)
		}
		if allocs != 0 {
			t.Fatalf("a rejected call allocates %v times; want 0", allocs)
		}
	})
}

func TestRequestGetsTheOpenError(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an open key and an actor that calls it with Request
		testkit.Register(t, e.Reg, "k", tripwiretest.New().Func(nil), tripwire.Settings{Threshold: 1, OpenTimeout: time.Hour})
		if _, err := call(e.Reg, "k", failOp); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("tripping call: %v", err)
		}
		replies := make(chan *tripwire.Reply, 1)
		refused := make(chan error, 1)
		pid := e.Sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor {
			return actorFunc(func(c actor.Context) {
				switch m := c.Message().(type) {
				case string:
					if err := e.Reg.Request(c, "k", okOp); err != nil {
						refused <- err
					}
				case *tripwire.Reply:
					replies <- m
				}
			})
		}))
		defer e.Sys.Root.Stop(pid)

		// When the actor makes a request
		e.Sys.Root.Send(pid, "go")

		// Then its one reply carries the *OpenError
		select {
		case err := <-refused:
			t.Fatalf("Request refused: %v", err)
		case r := <-replies:
			var oe *state.OpenError
			if !errors.As(r.Err, &oe) || oe.Key != "k" || oe.RetryAfter != time.Hour {
				t.Fatalf("reply error %v; want *OpenError for k, RetryAfter 1h", r.Err)
			}
		case <-time.After(time.Minute):
			t.Fatal("no reply")
		}
	})
}
