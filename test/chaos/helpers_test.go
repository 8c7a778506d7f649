package chaos_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
)

// env is an actor system with a registry on it, inside a synctest bubble.
type env struct {
	sys *actor.ActorSystem
	reg *tripwire.Registry
}

// inBubble runs body in fake time with a fresh actor system and registry,
// shuts both down when body ends, and runs fake time on so that protoactor's
// dead-letter throttle goroutine exits before the bubble closes.
func inBubble(t *testing.T, body func(t *testing.T, e *env)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		sys := tripwire.NewActorSystem(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
		reg, err := tripwire.Start(sys)
		if err != nil {
			t.Fatalf("Start: %v", err)
		}
		t.Cleanup(func() {
			if err := reg.Shutdown(context.Background()); err != nil {
				t.Errorf("Shutdown: %v", err)
			}
			sys.Shutdown()
			for range 2 {
				time.Sleep(time.Minute)
				synctest.Wait()
			}
		})
		body(t, &env{sys: sys, reg: reg})
	})
}

func register(t *testing.T, reg *tripwire.Registry, key string, target tripwire.Target, s tripwire.Settings) {
	t.Helper()
	if err := reg.Register(key, target, s); err != nil {
		t.Fatalf("Register(%q): %v", key, err)
	}
}

// must fails the test at once on a setter's error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

// result is what one call returned, and when.
type result struct {
	v   any
	err error
	at  time.Time
}

// goCall runs fn on its own goroutine; the result arrives on the channel.
func goCall(fn func() (any, error)) <-chan result {
	ch := make(chan result, 1)
	go func() {
		v, err := fn()
		ch <- result{v: v, err: err, at: time.Now()}
	}()
	return ch
}

// stillPending fails if the call behind ch has returned, once every goroutine
// of the bubble is blocked.
func stillPending(t *testing.T, ch <-chan result, what string) {
	t.Helper()
	synctest.Wait()
	select {
	case r := <-ch:
		t.Fatalf("%s returned early: %v, %v", what, r.v, r.err)
	default:
	}
}

// await returns a goCall's result; an hour of fake time without one fails.
func await(t *testing.T, ch <-chan result) result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(time.Hour):
		t.Fatalf("no result within an hour of fake time")
		return result{}
	}
}
