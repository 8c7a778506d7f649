package policies

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// factory builds a scripted target for any key, after a pause; fail says
// how its next runs end: an error, a panic, or (nil) a target.
type factory struct {
	runs   atomic.Int64
	keys   chan string
	target tripwiretest.Script
	fail   atomic.Pointer[string] // "error", "panic", "settings"
}

var errFactory = errors.New("factory failed")

func newFactory() *factory { return &factory{keys: make(chan string, 1000)} }

func (f *factory) build(_ context.Context, key string) (tripwire.Target, tripwire.Settings, error) {
	f.runs.Add(1)
	f.keys <- key
	time.Sleep(10 * time.Millisecond) // callers keep arriving meanwhile
	if p := f.fail.Load(); p != nil {
		switch *p {
		case "error":
			return nil, tripwire.Settings{}, errFactory
		case "panic":
			panic("factory bug")
		case "settings":
			return f.target.Func(nil), tripwire.Settings{Threshold: -1}, nil
		}
	}
	return f.target.Func(nil), tripwire.Settings{Threshold: 2}, nil
}

func (f *factory) failWith(how string) { f.fail.Store(&how) }

// together makes n calls to key that start at the same instant.
func together(e *testkit.Env, n int, key string) []<-chan testkit.Result {
	start := make(chan struct{})
	rs := make([]<-chan testkit.Result, n)
	for i := range rs {
		ch := make(chan testkit.Result, 1)
		rs[i] = ch
		go func() {
			<-start
			v, err := call(e.Reg, key, okOp)
			ch <- testkit.Result{V: v, Err: err, At: time.Now()}
		}()
	}
	close(start)
	return rs
}

func TestFactoryRunsOnceForConcurrentFirstCalls(t *testing.T) {
	f := newFactory()
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a registry with a factory and no keys
		// When 100 callers call the unknown key "new" at the same moment
		rs := together(e, 100, "new")

		// Then all succeed
		for _, ch := range rs {
			r := testkit.Await(t, ch)
			wantOK(t, "first call", r.V, r.Err)
		}
		// and the factory ran exactly once, for that key
		if n := f.runs.Load(); n != 1 {
			t.Fatalf("factory ran %d times; want 1", n)
		}
		if k := <-f.keys; k != "new" {
			t.Fatalf("factory built %q", k)
		}
		if n := f.target.Counts().Calls; n != 100 {
			t.Fatalf("target reached %d times; want 100", n)
		}
		// and the key is registered with the factory's settings
		if keys := e.Reg.Keys(); len(keys) != 1 || keys[0] != "new" {
			t.Fatalf("Keys %v; want [new]", keys)
		}
		for range 2 {
			_, _ = call(e.Reg, "new", failOp)
		}
		wantState(t, e.Reg, "new", state.Open) // Threshold 2
	}, tripwire.WithFactory(f.build))
}

func TestFactoryFailureFailsItsWaitersAndIsRetried(t *testing.T) {
	for _, how := range []string{"error", "panic", "settings"} {
		t.Run(how, func(t *testing.T) {
			f := newFactory()
			testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
				// Given a factory that fails (returns an error, panics, or
				// returns invalid settings)
				f.failWith(how)

				// When 50 callers call an unknown key at once
				rs := together(e, 50, "new")

				// Then each gets an error, not a crash, and the target is
				// not reached
				for _, ch := range rs {
					r := testkit.Await(t, ch)
					switch {
					case r.Err == nil:
						t.Fatalf("call succeeded: %v", r.V)
					case how == "error" && !errors.Is(r.Err, errFactory),
						how == "panic" && !strings.Contains(r.Err.Error(), "factory bug"),
						how == "settings" && !errors.Is(r.Err, tripwire.ErrInvalidSettings):
						t.Fatalf("call: %v; want the factory's %s", r.Err, how)
					}
				}
				if n := f.runs.Load(); n != 1 {
					t.Fatalf("factory ran %d times for one wave of callers; want 1", n)
				}
				if f.target.Counts().Calls != 0 || len(e.Reg.Keys()) != 0 {
					t.Fatalf("target reached or key registered after a failed factory: keys %v", e.Reg.Keys())
				}

				// When the factory works again and the next call comes
				f.fail.Store(nil)
				v, err := call(e.Reg, "new", okOp)

				// Then the factory is run again and the call succeeds
				wantOK(t, "retry", v, err)
				if n := f.runs.Load(); n != 2 {
					t.Fatalf("factory ran %d times; want 2", n)
				}
			}, tripwire.WithFactory(f.build))
		})
	}
}

func TestFactoryIsNotAskedForInvalidKeysOrByReaders(t *testing.T) {
	f := newFactory()
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a registry with a factory
		// When calls name invalid keys
		for _, key := range []string{"", "a\x00b", strings.Repeat("k", 256+1), "\xff"} {
			_, err := call(e.Reg, key, okOp)
			// Then they get ErrInvalidKey
			wantErr(t, "call", err, tripwire.ErrInvalidKey)
		}
		// When readers and control ops name an unknown key
		if _, err := e.Reg.State("new"); !errors.Is(err, tripwire.ErrUnknownKey) {
			t.Errorf("State: %v; want ErrUnknownKey", err)
		}
		if _, err := e.Reg.Snapshot(context.Background(), "new"); !errors.Is(err, tripwire.ErrUnknownKey) {
			t.Errorf("Snapshot: %v; want ErrUnknownKey", err)
		}
		crash := func(ctx context.Context, key string) error { return tripwiretest.Crash(ctx, e.Reg, key) }
		for name, do := range map[string]func(context.Context, string) error{
			"ForceOpen": e.Reg.ForceOpen, "ForceClose": e.Reg.ForceClose, "Reset": e.Reg.Reset,
			"Unregister": e.Reg.Unregister, "Crash": crash,
		} {
			if err := do(context.Background(), "new"); !errors.Is(err, tripwire.ErrUnknownKey) {
				t.Errorf("%s: %v; want ErrUnknownKey", name, err)
			}
		}

		// Then the factory never ran and no key exists
		if n := f.runs.Load(); n != 0 {
			t.Fatalf("factory ran %d times", n)
		}
		if keys := e.Reg.Keys(); len(keys) != 0 {
			t.Fatalf("Keys %v; want none", keys)
		}
	}, tripwire.WithFactory(f.build))
}

func TestFactoryCallerMayGiveUpWaiting(t *testing.T) {
	f := newFactory()
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a factory run under way (it takes 10ms)
		first := goCall(e.Reg, "new", okOp)
		<-f.keys

		// When a second caller's context ends before the factory finishes
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		defer cancel()
		_, err := e.Reg.Call(ctx, "new", okOp)

		// Then it gets its context's error, and the first caller succeeds
		wantErr(t, "impatient caller", err, context.DeadlineExceeded)
		r := testkit.Await(t, first)
		wantOK(t, "first caller", r.V, r.Err)
		if n := f.runs.Load(); n != 1 {
			t.Fatalf("factory ran %d times; want 1", n)
		}
	}, tripwire.WithFactory(f.build))
}

func TestWithFactoryNil(t *testing.T) {
	// Given no factory, When Start gets WithFactory(nil)
	reg, err := tripwire.Start(tripwire.WithFactory(nil))

	// Then it refuses the option
	if !errors.Is(err, tripwire.ErrInvalidOption) {
		if reg != nil {
			_ = reg.Shutdown(context.Background())
		}
		t.Fatalf("Start(WithFactory(nil)): %v; want ErrInvalidOption", err)
	}
}
