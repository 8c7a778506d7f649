package test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

func TestUnregisterAnswersEveryCallInFlightOnce(t *testing.T) {
	inBubble(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		// Given a key with 5 calls and 3 actor requests hung in its target
		var s script
		register(t, e.reg, "old", s.target(), tripwire.Settings{CallTimeout: 30 * time.Second})
		calls := make([]<-chan result, 5)
		for i := range calls {
			calls[i] = goCall(ctx, e.reg, "old", op{Hang: true})
		}
		pid, a := newAsker(e)
		msgs := []any{op{Label: "r1", Hang: true}, op{Label: "r2", Hang: true}, op{Label: "r3", Hang: true}}
		e.sys.Root.Send(pid, &requestAll{key: "old", msgs: msgs})
		for _, ch := range calls {
			stillPending(t, ch, "a hung call")
		}
		if snap := snapshot(t, e.reg, "old"); snap.InFlight != 8 {
			t.Fatalf("InFlight = %d, want 8", snap.InFlight)
		}

		// When the key is unregistered
		start := time.Now()
		if err := e.reg.Unregister("old"); err != nil {
			t.Fatalf("Unregister: %v", err)
		}

		// Then every call in flight gets ErrShutdown at once
		for i, ch := range calls {
			if r := await(t, ch); !errors.Is(r.err, tripwire.ErrShutdown) || !r.at.Equal(start) {
				t.Errorf("call %d: %v after %v, want ErrShutdown at once", i, r.err, r.at.Sub(start))
			}
		}
		// and each request exactly one ErrShutdown reply, also long after its deadline
		time.Sleep(time.Minute)
		for req, r := range onePerRequest(t, msgs, a.received()) {
			if !errors.Is(r.Err, tripwire.ErrShutdown) {
				t.Errorf("request %v: %v, want ErrShutdown", req, r.Err)
			}
		}
		if len(a.refused) != 0 {
			t.Errorf("Request refused: %v", <-a.refused)
		}
		// and later calls get ErrUnknownKey
		if _, err := e.reg.Call(ctx, "old", op{}); !errors.Is(err, tripwire.ErrUnknownKey) {
			t.Errorf("Call after Unregister: %v, want ErrUnknownKey", err)
		}
		if _, err := e.reg.Snapshot("old"); !errors.Is(err, tripwire.ErrUnknownKey) {
			t.Errorf("Snapshot after Unregister: %v, want ErrUnknownKey", err)
		}
		if err := e.reg.Unregister("old"); !errors.Is(err, tripwire.ErrUnknownKey) {
			t.Errorf("second Unregister: %v, want ErrUnknownKey", err)
		}
		if slices.Contains(e.reg.Keys(), "old") {
			t.Errorf("Keys() = %v still holds the key", e.reg.Keys())
		}
	})
}

func TestShutdownAnswersEveryCallInFlightOnce(t *testing.T) {
	inBubble(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		// Given two keys, each with 3 calls hung in its target, and 2 actor requests hung on one
		var s script
		var calls []<-chan result
		for _, key := range []string{"x", "y"} {
			register(t, e.reg, key, s.target(), tripwire.Settings{CallTimeout: 30 * time.Second})
			for range 3 {
				calls = append(calls, goCall(ctx, e.reg, key, op{Hang: true}))
			}
		}
		pid, a := newAsker(e)
		msgs := []any{op{Label: "r1", Hang: true}, op{Label: "r2", Hang: true}}
		e.sys.Root.Send(pid, &requestAll{key: "x", msgs: msgs})
		for _, ch := range calls {
			stillPending(t, ch, "a hung call")
		}

		// When the registry shuts down
		start := time.Now()
		done := make(chan error, 1)
		go func() { done <- e.reg.Shutdown(ctx) }()

		// Then every call in flight gets ErrShutdown at once
		for i, ch := range calls {
			if r := await(t, ch); !errors.Is(r.err, tripwire.ErrShutdown) || !r.at.Equal(start) {
				t.Errorf("call %d: %v after %v, want ErrShutdown at once", i, r.err, r.at.Sub(start))
			}
		}
		// and Shutdown returns nil once the hung targets have given up
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Shutdown: %v", err)
			}
		case <-time.After(time.Hour):
			t.Fatalf("Shutdown did not return")
		}
		// and each request got exactly one ErrShutdown reply
		time.Sleep(time.Minute)
		for req, r := range onePerRequest(t, msgs, a.received()) {
			if !errors.Is(r.Err, tripwire.ErrShutdown) {
				t.Errorf("request %v: %v, want ErrShutdown", req, r.Err)
			}
		}
		// and everything later gets ErrShutdown
		if _, err := e.reg.Call(ctx, "x", op{}); !errors.Is(err, tripwire.ErrShutdown) {
			t.Errorf("Call after Shutdown: %v, want ErrShutdown", err)
		}
		if err := e.reg.Register("z", s.target(), tripwire.Settings{}); !errors.Is(err, tripwire.ErrShutdown) {
			t.Errorf("Register after Shutdown: %v, want ErrShutdown", err)
		}
		e.sys.Root.Send(pid, &requestAll{key: "x", msgs: []any{op{Label: "late"}}})
		if err := errFrom(a.refused); !errors.Is(err, tripwire.ErrShutdown) {
			t.Errorf("Request after Shutdown: %v, want ErrShutdown", err)
		}
		// and a second Shutdown returns nil
		if err := e.reg.Shutdown(ctx); err != nil {
			t.Errorf("second Shutdown: %v", err)
		}
	})
}

// errFrom returns the next error on ch, waiting up to a second of fake time.
func errFrom(ch chan error) error {
	select {
	case err := <-ch:
		return err
	case <-time.After(time.Second):
		return fmt.Errorf("no error")
	}
}
