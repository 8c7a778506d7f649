package policies

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// idleFactory makes, for any key, a target that answers and a breaker that
// passivates after a second without calls; it counts its runs per key.
type idleFactory struct {
	target tripwiretest.Script
	runs   map[string]*atomic.Int64
}

func newIdleFactory(keys ...string) *idleFactory {
	f := &idleFactory{runs: map[string]*atomic.Int64{}}
	for _, k := range keys {
		f.runs[k] = new(atomic.Int64)
	}
	return f
}

func (f *idleFactory) build(_ context.Context, key string) (tripwire.Target, tripwire.Settings, error) {
	f.runs[key].Add(1)
	return f.target.Func(nil), tripwire.Settings{IdleTimeout: time.Second}, nil
}

func TestMaxKeysForgetsTheKeyPassivatedLongestAgo(t *testing.T) {
	f := newIdleFactory("a", "b", "c", "d")
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given three factory-made keys, used last in the order b, c, a,
		// all passivated since (at +1.1s, +1.2s, +1.3s)
		for _, k := range []string{"a", "b", "c"} {
			callOK(t, e.Reg, k, k)
			advance(100 * time.Millisecond)
		}
		callOK(t, e.Reg, "a", "a again")
		advance(2 * time.Second)
		for _, k := range []string{"a", "b", "c"} {
			wantBreakerActors(t, e, k, 0)
		}

		// When a fourth key comes
		callOK(t, e.Reg, "d", "d")

		// Then b, passivated longest ago, is forgotten, and the rest stay
		require.Equal(t, []string{"a", "c", "d"}, e.Reg.Keys())
		_, err := e.Reg.State("b")
		require.ErrorIs(t, err, tripwire.ErrUnknownKey)

		// and b's next call makes it again, forgetting c to make room
		callOK(t, e.Reg, "b", "b again")
		require.EqualValues(t, 2, f.runs["b"].Load())
		require.Equal(t, []string{"a", "b", "d"}, e.Reg.Keys())
	}, tripwire.WithFactory(f.build), tripwire.WithMaxKeys(3))
}

func TestMaxKeysNeverForgetsALiveOrRegisteredKey(t *testing.T) {
	f := newIdleFactory("made", "new", "late")
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a key the program registered and one the factory made,
		// both passivated, in a registry bounded at two keys
		var own tripwiretest.Script
		testkit.Register(t, e.Reg, "own", own.Func(nil), tripwire.Settings{IdleTimeout: time.Second})
		callOK(t, e.Reg, "made", "made")
		advance(2 * time.Second)
		wantBreakerActors(t, e, "own", 0)
		wantBreakerActors(t, e, "made", 0)

		// When a new key comes, the factory's is forgotten, never the
		// program's
		callOK(t, e.Reg, "new", "new")
		require.Equal(t, []string{"new", "own"}, e.Reg.Keys())

		// When one more comes while "new" is live (not passivated)
		_, err := call(e.Reg, "late", okOp)

		// Then it is refused, the factory is not run, and nothing changes
		require.ErrorIs(t, err, tripwire.ErrTooManyKeys)
		require.Zero(t, f.runs["late"].Load())
		require.Equal(t, []string{"new", "own"}, e.Reg.Keys())
		callOK(t, e.Reg, "new", "new still")

		// and so is a Register beyond the bound
		err = e.Reg.Register(context.Background(), "extra", own.Func(nil), tripwire.Settings{})
		require.ErrorIs(t, err, tripwire.ErrTooManyKeys)
		require.Equal(t, []string{"new", "own"}, e.Reg.Keys())
	}, tripwire.WithFactory(f.build), tripwire.WithMaxKeys(2))
}

func TestMaxKeysDoesNotForgetAKeyThatWokeUp(t *testing.T) {
	f := newIdleFactory("a", "b", "c")
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given two factory-made keys that passivated, a first
		callOK(t, e.Reg, "a", "a")
		advance(100 * time.Millisecond)
		callOK(t, e.Reg, "b", "b")
		advance(2 * time.Second)
		// and a that woke up since, and is live
		callOK(t, e.Reg, "a", "a woken")
		wantBreakerActors(t, e, "a", 1)

		// When a third key comes
		callOK(t, e.Reg, "c", "c")

		// Then b, the one asleep, is forgotten
		require.Equal(t, []string{"a", "c"}, e.Reg.Keys())
	}, tripwire.WithFactory(f.build), tripwire.WithMaxKeys(2))
}

func TestWithMaxKeysBelowOneIsInvalid(t *testing.T) {
	for _, n := range []int{0, -1} {
		_, err := tripwire.Start(tripwire.WithMaxKeys(n))
		if !errors.Is(err, tripwire.ErrInvalidOption) {
			t.Errorf("WithMaxKeys(%d): %v", n, err)
		}
	}
}

// callOK calls key and checks that it answered, saying what in failures.
func callOK(t *testing.T, reg *tripwire.Registry, key, what string) {
	t.Helper()
	v, err := call(reg, key, okOp)
	wantOK(t, what, v, err)
}
