package regress

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// stuckFactory is a factory that never returns until released, ignoring its
// context; it counts its runs.
type stuckFactory struct {
	runs    atomic.Int64
	release chan struct{}
}

func (f *stuckFactory) make(context.Context, string) (tripwire.Target, tripwire.Settings, error) {
	f.runs.Add(1)
	<-f.release
	return tripwire.Func(func(context.Context, any) (any, error) { return "ok", nil }), tripwire.Settings{}, nil
}

// TestShutdownReleasesCallsWaitingForTheFactory guards issue 12.1: a caller
// waiting for another caller's factory run waited on that run and its own
// context only, so Shutdown left it blocked — forever, with a factory that
// never returns. Both callers (the one whose call started the factory and
// one that joined it) must get ErrShutdown when Shutdown begins, and a
// Request waiting the same way must be replied to.
func TestShutdownReleasesCallsWaitingForTheFactory(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		f := &stuckFactory{release: make(chan struct{})} // made in the bubble, so waiting on it is durable
		reg, err := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithFactory(f.make))
		if err != nil {
			t.Fatal(err)
		}
		// Given two callers and a request waiting for a factory that never returns
		first := testkit.GoCall(context.Background(), reg, "new", "m")
		synctest.Wait()
		joined := testkit.GoCall(context.Background(), reg, "new", "m")
		e := &testkit.Env{Sys: sys, Reg: reg}
		pid, asker := testkit.NewAsker(e)
		sys.Root.Send(pid, &testkit.RequestAll{Key: "new", Msgs: []any{"m"}})
		testkit.StillPending(t, first, "the call that started the factory")
		testkit.StillPending(t, joined, "the call that joined it")

		// When the registry shuts down (its context ends while the factory is stuck)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if err := reg.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Shutdown with a stuck factory: %v, want its context's end", err)
		}

		// Then every waiting call got ErrShutdown at once, and the request its Reply
		for _, ch := range []<-chan testkit.Result{first, joined} {
			select {
			case r := <-ch:
				if !errors.Is(r.Err, tripwire.ErrShutdown) || testkit.SinceStart() != time.Second {
					t.Errorf("waiting call: %v at +%v, want ErrShutdown", r.Err, testkit.SinceStart())
				}
			default:
				t.Errorf("a call waiting for the factory is still waiting after Shutdown")
			}
		}
		if got := asker.Received(); len(got) != 1 || !errors.Is(got[0].Err, tripwire.ErrShutdown) {
			t.Errorf("request replies %v, want one ErrShutdown", got)
		}
		if n := f.runs.Load(); n != 1 {
			t.Errorf("factory ran %d times, want 1", n)
		}
		// and once the factory returns, the shutdown completes
		close(f.release)
		if err := reg.Shutdown(context.Background()); err != nil {
			t.Errorf("Shutdown after the factory returned: %v", err)
		}
	})
}

// TestFactoryWaitKeepsEveryCallersDeadline guards issue 12.2: the factory
// ran synchronously on the first caller's goroutine, without a context, so
// that caller ignored its own deadline (a Call with a 50 ms deadline was
// still blocked at 1 s). Every caller, the first included, waits for the
// factory with its own deadline and gets ErrTimeout then; the factory is
// given a context that ends once every caller waiting for it has left.
func TestFactoryWaitKeepsEveryCallersDeadline(t *testing.T) {
	var factoryCtx atomic.Pointer[context.Context]
	slow := func(ctx context.Context, key string) (tripwire.Target, tripwire.Settings, error) {
		factoryCtx.Store(&ctx)
		time.Sleep(time.Second)
		return tripwire.Func(func(context.Context, any) (any, error) { return "ok", nil }), tripwire.Settings{}, nil
	}
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a factory that takes 1 s
		// When two callers with 50 ms and 80 ms deadlines call a new key
		call := func(d time.Duration) <-chan testkit.Result {
			ctx, cancel := context.WithTimeout(context.Background(), d)
			return testkit.Go(func() (any, error) {
				defer cancel()
				return e.Reg.Call(ctx, "new", "m")
			})
		}
		first := call(50 * time.Millisecond)
		synctest.Wait()
		second := call(80 * time.Millisecond)

		// Then each gets ErrTimeout at its own deadline
		for _, want := range []struct {
			ch <-chan testkit.Result
			at time.Duration
		}{{first, 50 * time.Millisecond}, {second, 80 * time.Millisecond}} {
			r := testkit.Await(t, want.ch)
			if !errors.Is(r.Err, tripwire.ErrTimeout) || r.At.Sub(testkit.BubbleStart) != want.at {
				t.Errorf("caller: %v at +%v, want ErrTimeout at +%v", r.Err, r.At.Sub(testkit.BubbleStart), want.at)
			}
		}
		// and the factory's context ended when the last of them left
		synctest.Wait()
		if p := factoryCtx.Load(); p == nil || (*p).Err() == nil {
			t.Errorf("the factory's context did not end when its callers gave up")
		}
		// and what it made serves the next call once it returns
		time.Sleep(time.Second)
		if v, err := e.Reg.Call(context.Background(), "new", "m"); err != nil || v != "ok" {
			t.Errorf("call after the factory returned: %v, %v", v, err)
		}
	}, tripwire.WithFactory(slow))
}

// TestFactoryRunsOncePerKeyUnderContention guards issue 12.13: with many
// callers arriving at many new keys together (16 callers x 1,000 keys), the
// factory ran 2 to 16 times for some keys, and the runs' products after the
// first were dropped silently. resolve looked the key up before taking the
// flights lock, so a flight that finished in between started another.
func TestFactoryRunsOncePerKeyUnderContention(t *testing.T) {
	const callers, keys = 16, 1000
	var mu sync.Mutex
	runs := map[string]int{}
	count := func(_ context.Context, key string) (tripwire.Target, tripwire.Settings, error) {
		mu.Lock()
		runs[key]++
		mu.Unlock()
		return tripwire.Func(func(context.Context, any) (any, error) { return "ok", nil }), tripwire.Settings{}, nil
	}
	reg, err := tripwire.Start(tripwire.WithActorSystem(testkit.NewSystem(t)), tripwire.WithFactory(count))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = reg.Shutdown(context.Background()) }()

	// When 16 callers each call all 1,000 new keys, all in the same order,
	// so that they arrive at each new key together (half of them start at
	// a key of their own, so some keys see callers both arriving with the
	// first and catching up after the key was made)
	var wg sync.WaitGroup
	var failed atomic.Int64
	for c := range callers {
		start := 0
		if c%2 == 1 {
			start = rand.IntN(keys)
		}
		wg.Go(func() {
			for i := range keys {
				k := (start + i) % keys
				if _, err := reg.Call(context.Background(), fmt.Sprintf("k%04d", k), "m"); err != nil {
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()

	// Then every call succeeded and the factory ran exactly once per key
	if n := failed.Load(); n != 0 {
		t.Errorf("%d calls failed", n)
	}
	if len(runs) != keys {
		t.Errorf("factory ran for %d keys, want %d", len(runs), keys)
	}
	for k, n := range runs {
		if n != 1 {
			t.Errorf("factory ran %d times for %q", n, k)
		}
	}
}

// TestRequestNeverBlocksItsActorOnTheFactory guards the Request half of
// issue 12.1: Request ran the factory on the requesting actor's goroutine,
// so a slow factory blocked the actor. The actor must go on at once; its
// Reply comes when the key exists.
func TestRequestNeverBlocksItsActorOnTheFactory(t *testing.T) {
	slow := func(context.Context, string) (tripwire.Target, tripwire.Settings, error) {
		time.Sleep(time.Second)
		return tripwire.Func(func(context.Context, any) (any, error) { return "ok", nil }), tripwire.Settings{}, nil
	}
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an actor that requests a new key, then gets another message
		pid, a := testkit.NewAsker(e)
		e.Sys.Root.Send(pid, &testkit.RequestAll{Key: "new", Msgs: []any{"m"}})
		e.Sys.Root.Send(pid, &testkit.RequestAll{Key: "", Msgs: []any{"x"}})

		// Then the second message is handled at once (its bad key
		// refused), while the factory runs
		if errs := testkit.Drain(a.Refused); len(errs) != 1 || !errors.Is(errs[0], tripwire.ErrInvalidKey) {
			t.Errorf("at +%v the actor had refused %v, want the empty key at once", testkit.SinceStart(), errs)
		}
		// and the request's Reply came once the factory returned
		time.Sleep(time.Second)
		if got := a.Received(); len(got) != 1 || got[0].Err != nil || got[0].Value != "ok" {
			t.Errorf("replies %v, want one ok", got)
		}
	}, tripwire.WithFactory(slow))
}
