package regress

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

// wrapped embeds a Target, as a program's own target type might.
type wrapped struct{ tripwire.Target }

// TestRegisterRefusesANilEmbeddedTarget guards issue 12.9: Register
// dereferenced nil, and panicked, on a struct that embeds a nil Target and
// on a typed nil pointer to one. Both are ErrInvalidTarget.
func TestRegisterRefusesANilEmbeddedTarget(t *testing.T) {
	reg := testkit.Start(t, testkit.NewSystem(t))
	for name, target := range map[string]tripwire.Target{
		"a struct embedding a nil Target":  wrapped{},
		"a nil pointer to such a struct":   (*wrapped)(nil),
		"a pointer to one embedding nil":   &wrapped{},
		"a nil Target behind an interface": tripwire.Target(nil),
	} {
		if err := reg.Register(context.Background(), "k", target, tripwire.Settings{}); !errors.Is(err, tripwire.ErrInvalidTarget) {
			t.Errorf("Register(%s) = %v, want ErrInvalidTarget", name, err)
		}
	}
	// and one that embeds a real target works
	if err := reg.Register(context.Background(), "k", wrapped{okTarget()}, tripwire.Settings{}); err != nil {
		t.Errorf("Register of an embedded FuncTarget: %v", err)
	}
}

// TestTinyIdleTimeoutNeverSaysRestarted guards issue 12.10: with a 1 ns
// IdleTimeout, 0.8-6% of calls got ErrBreakerRestarted though no breaker
// crashed: the breaker went idle again before taking the call, which bounced,
// and after three bounces the internal reason leaked out. ErrBreakerRestarted
// means a crash, nothing else: here every call succeeds. Real time, as the
// bug needs real gaps between a breaker's start and its first turn.
func TestTinyIdleTimeoutNeverSaysRestarted(t *testing.T) {
	reg := testkit.Start(t, testkit.NewSystem(t))
	testkit.Register(t, reg, "idle", okTarget(), tripwire.Settings{IdleTimeout: time.Nanosecond})
	var wg sync.WaitGroup
	var restarted, other atomic.Int64
	for range 16 {
		wg.Go(func() {
			for range 500 {
				_, err := reg.Call(context.Background(), "idle", "m")
				switch {
				case errors.Is(err, tripwire.ErrBreakerRestarted):
					restarted.Add(1)
				case err != nil:
					other.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if restarted.Load() != 0 || other.Load() != 0 {
		t.Errorf("of 8,000 calls to an idle-passivating key, %d got ErrBreakerRestarted and %d another error",
			restarted.Load(), other.Load())
	}
}

// TestExpiredContextIsErrTimeout guards issue 12.12: a call whose context
// had already expired got the raw context.DeadlineExceeded, which does not
// match ErrTimeout. It gets ErrTimeout (which still matches
// context.DeadlineExceeded); a cancelled context still gets
// context.Canceled.
func TestExpiredContextIsErrTimeout(t *testing.T) {
	reg := testkit.Start(t, testkit.NewSystem(t))
	testkit.Register(t, reg, "k", okTarget(), tripwire.Settings{})
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err := reg.Call(expired, "k", "m")
	if !errors.Is(err, tripwire.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Call with an expired context: %v, want ErrTimeout", err)
	}
	cancelled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, err := reg.Call(cancelled, "k", "m"); !errors.Is(err, context.Canceled) || errors.Is(err, tripwire.ErrTimeout) {
		t.Errorf("Call with a cancelled context: %v, want context.Canceled", err)
	}
}

// TestInvisibleCharactersMakeAKeyInvalid is the key half of issue 12.12:
// keys with invisible format characters (U+200B, U+202E) were accepted, so
// two keys could look the same in every log line and dashboard.
func TestInvisibleCharactersMakeAKeyInvalid(t *testing.T) {
	reg := testkit.Start(t, testkit.NewSystem(t))
	for _, key := range []string{"pay\u200bments", "\u202epayments", "pay\u00adments", "a\u2028b", "\ufeffk"} {
		if err := reg.Register(context.Background(), key, okTarget(), tripwire.Settings{}); !errors.Is(err, tripwire.ErrInvalidKey) {
			t.Errorf("Register(%q) = %v, want ErrInvalidKey", key, err)
		}
	}
}

// TestUnreachableTimeWindowMinCallsIsInvalid is the settings half of issue
// 12.12: a count window refuses a MinCalls over its Size, but a time window
// accepted a MinCalls its buckets could never count.
func TestUnreachableTimeWindowMinCallsIsInvalid(t *testing.T) {
	reg := testkit.Start(t, testkit.NewSystem(t))
	for _, w := range []state.Window{
		{Period: time.Second, MinCalls: 1 << 40},
		{Period: time.Second, Buckets: 2, MinCalls: 1<<32 + 1},
	} {
		if err := reg.Register(context.Background(), "k", okTarget(), tripwire.Settings{Window: w}); !errors.Is(err, tripwire.ErrInvalidSettings) {
			t.Errorf("Register with %+v = %v, want ErrInvalidSettings", w, err)
		}
	}
	if err := reg.Register(context.Background(), "k", okTarget(), tripwire.Settings{Window: state.Window{Period: time.Second, MinCalls: 1 << 20}}); err != nil {
		t.Errorf("a reachable MinCalls: %v", err)
	}
}
