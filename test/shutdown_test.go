package test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestUnregisterAnswersEveryCallInFlightOnce(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a key with 5 calls and 3 actor requests hung in its target
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "old", s.Func(nil), tripwire.Settings{CallTimeout: 30 * time.Second})
		calls := make([]<-chan testkit.Result, 5)
		for i := range calls {
			calls[i] = testkit.GoCall(ctx, e.Reg, "old", tripwiretest.Op{Hang: true})
		}
		pid, a := testkit.NewAsker(e)
		msgs := []any{tripwiretest.Op{Label: "r1", Hang: true}, tripwiretest.Op{Label: "r2", Hang: true}, tripwiretest.Op{Label: "r3", Hang: true}}
		e.Sys.Root.Send(pid, &testkit.RequestAll{Key: "old", Msgs: msgs})
		for _, ch := range calls {
			testkit.StillPending(t, ch, "a hung call")
		}
		if snap := testkit.Snapshot(t, e.Reg, "old"); snap.InFlight != 8 {
			t.Fatalf("InFlight = %d, want 8", snap.InFlight)
		}

		// When the key is unregistered
		start := time.Now()
		if err := e.Reg.Unregister(context.Background(), "old"); err != nil {
			t.Fatalf("Unregister: %v", err)
		}

		// Then every call in flight gets ErrShutdown at once
		for i, ch := range calls {
			if r := testkit.Await(t, ch); !errors.Is(r.Err, tripwire.ErrShutdown) || !r.At.Equal(start) {
				t.Errorf("call %d: %v after %v, want ErrShutdown at once", i, r.Err, r.At.Sub(start))
			}
		}
		// and each request exactly one ErrShutdown reply, also long after its deadline
		time.Sleep(time.Minute)
		for req, r := range onePerRequest(t, msgs, a.Received()) {
			if !errors.Is(r.Err, tripwire.ErrShutdown) {
				t.Errorf("request %v: %v, want ErrShutdown", req, r.Err)
			}
		}
		if len(a.Refused) != 0 {
			t.Errorf("Request refused: %v", <-a.Refused)
		}
		// and later calls get ErrUnknownKey
		if _, err := e.Reg.Call(ctx, "old", tripwiretest.Op{}); !errors.Is(err, tripwire.ErrUnknownKey) {
			t.Errorf("Call after Unregister: %v, want ErrUnknownKey", err)
		}
		if _, err := e.Reg.Snapshot(context.Background(), "old"); !errors.Is(err, tripwire.ErrUnknownKey) {
			t.Errorf("Snapshot after Unregister: %v, want ErrUnknownKey", err)
		}
		if err := e.Reg.Unregister(context.Background(), "old"); !errors.Is(err, tripwire.ErrUnknownKey) {
			t.Errorf("second Unregister: %v, want ErrUnknownKey", err)
		}
		if slices.Contains(e.Reg.Keys(), "old") {
			t.Errorf("Keys() = %v still holds the key", e.Reg.Keys())
		}
	})
}

func TestShutdownAnswersEveryCallInFlightOnce(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given two keys, each with 3 calls hung in its target, and 2 actor requests hung on one
		var s tripwiretest.Script
		var calls []<-chan testkit.Result
		for _, key := range []string{"x", "y"} {
			testkit.Register(t, e.Reg, key, s.Func(nil), tripwire.Settings{CallTimeout: 30 * time.Second})
			for range 3 {
				calls = append(calls, testkit.GoCall(ctx, e.Reg, key, tripwiretest.Op{Hang: true}))
			}
		}
		pid, a := testkit.NewAsker(e)
		msgs := []any{tripwiretest.Op{Label: "r1", Hang: true}, tripwiretest.Op{Label: "r2", Hang: true}}
		e.Sys.Root.Send(pid, &testkit.RequestAll{Key: "x", Msgs: msgs})
		for _, ch := range calls {
			testkit.StillPending(t, ch, "a hung call")
		}

		// When the registry shuts down
		start := time.Now()
		done := make(chan error, 1)
		go func() { done <- e.Reg.Shutdown(ctx) }()

		// Then every call in flight gets ErrShutdown at once
		for i, ch := range calls {
			if r := testkit.Await(t, ch); !errors.Is(r.Err, tripwire.ErrShutdown) || !r.At.Equal(start) {
				t.Errorf("call %d: %v after %v, want ErrShutdown at once", i, r.Err, r.At.Sub(start))
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
		for req, r := range onePerRequest(t, msgs, a.Received()) {
			if !errors.Is(r.Err, tripwire.ErrShutdown) {
				t.Errorf("request %v: %v, want ErrShutdown", req, r.Err)
			}
		}
		// and everything later gets ErrShutdown
		if _, err := e.Reg.Call(ctx, "x", tripwiretest.Op{}); !errors.Is(err, tripwire.ErrShutdown) {
			t.Errorf("Call after Shutdown: %v, want ErrShutdown", err)
		}
		if err := e.Reg.Register(context.Background(), "z", s.Func(nil), tripwire.Settings{}); !errors.Is(err, tripwire.ErrShutdown) {
			t.Errorf("Register after Shutdown: %v, want ErrShutdown", err)
		}
		e.Sys.Root.Send(pid, &testkit.RequestAll{Key: "x", Msgs: []any{tripwiretest.Op{Label: "late"}}})
		if err := errFrom(a.Refused); !errors.Is(err, tripwire.ErrShutdown) {
			t.Errorf("Request after Shutdown: %v, want ErrShutdown", err)
		}
		// and a second Shutdown returns nil
		if err := e.Reg.Shutdown(ctx); err != nil {
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
