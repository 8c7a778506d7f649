package regress

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// TestShutdownHonoursItsContextWhileAnEventHandlerRuns guards issue 12.4:
// the event hub's close waited without a context, so Shutdown(ctx) ignored
// ctx while an EventStream handler ran, and called from inside a handler it
// never returned. Shutdown returns ctx.Err() when ctx ends, always; once the
// handler returns, the shutdown completes.
func TestShutdownHonoursItsContextWhileAnEventHandlerRuns(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
		if err != nil {
			t.Fatal(err)
		}
		// Given an EventStream handler that blocks on a transition
		release := make(chan struct{})
		sub := sys.EventStream.Subscribe(func(evt any) {
			if _, ok := evt.(*state.Transition); ok {
				<-release
			}
		})
		defer sys.EventStream.Unsubscribe(sub)
		testkit.Register(t, reg, "k", okTarget(), tripwire.Settings{})
		if err := reg.ForceOpen(context.Background(), "k"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()

		// When Shutdown is given 1 s
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		err = reg.Shutdown(ctx)

		// Then it returns ctx's error after 1 s, and the registry is shut down for callers
		if !errors.Is(err, context.DeadlineExceeded) || testkit.SinceStart() != time.Second {
			t.Errorf("Shutdown: %v at +%v, want DeadlineExceeded at +1s", err, testkit.SinceStart())
		}
		if _, err := reg.Call(context.Background(), "k", "m"); !errors.Is(err, tripwire.ErrShutdown) {
			t.Errorf("Call after Shutdown: %v", err)
		}
		// and once the handler returns, a Shutdown returns nil
		close(release)
		if err := reg.Shutdown(context.Background()); err != nil {
			t.Errorf("second Shutdown: %v", err)
		}
	})
}

// TestShutdownFromASubscriberReturnsAtItsDeadline is the other half of
// issue 12.4: called from a Subscribe callback, Shutdown waits for the very
// goroutine it runs on, so it must return when its context ends.
func TestShutdownFromASubscriberReturnsAtItsDeadline(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan error, 1)
		reg.Subscribe(func(state.Transition) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			got <- reg.Shutdown(ctx)
		})
		testkit.Register(t, reg, "k", okTarget(), tripwire.Settings{})
		if err := reg.ForceOpen(context.Background(), "k"); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-got:
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Shutdown from a subscriber: %v, want DeadlineExceeded", err)
			}
		case <-time.After(time.Hour):
			t.Fatal("Shutdown from a subscriber never returned")
		}
		if err := reg.Shutdown(context.Background()); err != nil {
			t.Errorf("Shutdown afterwards: %v", err)
		}
	})
}

// TestEveryConcurrentShutdownWaitsForTheEnd guards issue 12.11: with 10
// concurrent Shutdown calls, 9 returned nil at once while 200 keys were
// still registered. Each returns only once the registry is shut down.
func TestEveryConcurrentShutdownWaitsForTheEnd(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
		if err != nil {
			t.Fatal(err)
		}
		// Given 200 keys, each with a call hung in its target
		var hung []<-chan testkit.Result
		for i := range 200 {
			key := fmt.Sprintf("k%03d", i)
			testkit.Register(t, reg, key, tripwiretest.New().Func(nil), tripwire.Settings{CallTimeout: time.Hour})
			hung = append(hung, testkit.GoCall(context.Background(), reg, key, tripwiretest.Op{Hang: true}))
		}
		synctest.Wait()

		// When 10 Shutdowns run at once
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				err := reg.Shutdown(context.Background())
				// Then each, when it returns, finds no key registered and
				// every call answered
				if err != nil || len(reg.Keys()) != 0 {
					t.Errorf("Shutdown returned %v with %d keys still registered", err, len(reg.Keys()))
				}
			})
		}
		wg.Wait()
		// and every call was answered ErrShutdown
		for _, ch := range hung {
			if r := testkit.Await(t, ch); !errors.Is(r.Err, tripwire.ErrShutdown) {
				t.Errorf("hung call: %v", r.Err)
			}
		}
	})
}

func okTarget() tripwire.Target {
	return tripwire.Func(func(context.Context, any) (any, error) { return "ok", nil })
}
