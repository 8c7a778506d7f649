package tripwire

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"
	"github.com/tripwire-go/tripwire/internal/system"
)

// inFactoryBubble runs body in fake time against a registry started with
// opts; everything is shut down after body.
func inFactoryBubble(t *testing.T, body func(t *testing.T, sys *actor.ActorSystem, reg *Registry), opts ...Option) {
	synctest.Test(t, func(t *testing.T) {
		sys := system.New(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
		reg, err := Start(append([]Option{WithActorSystem(sys)}, opts...)...)
		require.NoError(t, err)
		defer func() {
			testHookResolved = nil
			require.NoError(t, reg.Shutdown(context.Background()))
			sys.Shutdown()
			time.Sleep(time.Minute)
			synctest.Wait()
		}()
		body(t, sys, reg)
	})
}

// Regression: with WithMaxKeys, a caller that waited for the factory looked
// its key up again once the factory was done; a key that had passivated and
// been forgotten meanwhile (to make room for another) answered
// ErrUnknownKey, where the docs promise such a key is made again.
func TestAKeyForgottenBeforeItsWaiterLooksIsMadeAgain(t *testing.T) {
	var made atomic.Int64
	factory := func(_ context.Context, key string) (Target, Settings, error) {
		if key == "a" {
			made.Add(1)
		}
		return Func(func(context.Context, any) (any, error) { return "ok " + key, nil }),
			Settings{IdleTimeout: time.Second, CallTimeout: 10 * time.Second}, nil
	}
	for _, via := range []string{"Call", "Request"} {
		t.Run(via, func(t *testing.T) {
			made.Store(0)
			inFactoryBubble(t, func(t *testing.T, sys *actor.ActorSystem, reg *Registry) {
				// Given a's first waiter, held once a's factory has run
				// while a passivates and is forgotten for another key (the
				// registry holds two)
				forgotten := false
				testHookResolved = func(key string) {
					if key != "a" || forgotten {
						return
					}
					forgotten = true
					for _, other := range []string{"b", "c"} { // a, then b, passivate; a is forgotten for c
						time.Sleep(2 * time.Second)
						synctest.Wait()
						v, err := reg.Call(context.Background(), other, "x")
						require.NoError(t, err)
						require.Equal(t, "ok "+other, v)
					}
					_, err := reg.lookup("a")
					require.ErrorIs(t, err, ErrUnknownKey, "a was not forgotten: the test proves nothing")
				}

				// When it goes on
				var v any
				var err error
				if via == "Call" {
					v, err = reg.Call(context.Background(), "a", "x")
				} else {
					v, err = requestOnce(t, sys, reg, "a")
				}

				// Then the key is made again and the call served
				require.NoError(t, err)
				require.Equal(t, "ok a", v)
				require.EqualValues(t, 2, made.Load())
			}, WithFactory(factory), WithMaxKeys(2))
		})
	}
}

// requestOnce sends one Request for key from an actor and returns its Reply.
func requestOnce(t *testing.T, sys *actor.ActorSystem, reg *Registry, key string) (any, error) {
	replies := make(chan *Reply, 1)
	pid := sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		switch m := c.Message().(type) {
		case string:
			require.NoError(t, reg.Request(c, key, m))
		case *Reply:
			replies <- m
		}
	}))
	defer sys.Root.Stop(pid)
	sys.Root.Send(pid, "x")
	r := <-replies
	return r.Value, r.Err
}

// Regression: when every caller of a flight that waited for an abandoned
// run gave up too, the flight stopped waiting and left, and the next caller
// started the factory beside the abandoned run, still going.
func TestAFactoryNeverRunsTwiceAtOnceAfterTwoAbandonedFlights(t *testing.T) {
	var release chan struct{} // made in the bubble
	var runs, running, most atomic.Int32
	factory := func(context.Context, string) (Target, Settings, error) {
		runs.Add(1)
		if n := running.Add(1); n > most.Load() {
			most.Store(n)
		}
		defer running.Add(-1)
		<-release // ignores its context
		return Func(func(context.Context, any) (any, error) { return "ok", nil }), Settings{}, nil
	}
	inFactoryBubble(t, func(t *testing.T, _ *actor.ActorSystem, reg *Registry) {
		release = make(chan struct{})
		// Given a factory run that every waiter gave up on
		giveUp := func() {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			_, err := reg.Call(ctx, "k", 1)
			require.ErrorIs(t, err, ErrTimeout)
		}
		giveUp()
		// and a second flight, waiting for it, that every waiter gave up on
		giveUp()

		// When a third caller comes while the first run still goes, and it returns
		third := make(chan error, 1)
		go func() { _, err := reg.Call(context.Background(), "k", 1); third <- err }()
		synctest.Wait()
		require.EqualValues(t, 1, most.Load(), "two factory runs at once for one key")
		close(release)

		// Then the third call is served, by that one run or one after it
		require.NoError(t, <-third)
		require.EqualValues(t, 1, most.Load(), "two factory runs at once for one key")
		require.LessOrEqual(t, runs.Load(), int32(2))
	}, WithFactory(factory))
}

// Regression: a factory that called runtime.Goexit (a t.FailNow in a
// test's factory does) left its flight open for good, and every later call
// of the key waited on it.
func TestAFactoryThatCallsGoexitFailsItsCallsAsAPanicDoes(t *testing.T) {
	var runs atomic.Int32
	factory := func(context.Context, string) (Target, Settings, error) {
		if runs.Add(1) == 1 {
			runtime.Goexit()
		}
		return Func(func(context.Context, any) (any, error) { return "ok", nil }), Settings{}, nil
	}
	inFactoryBubble(t, func(t *testing.T, _ *actor.ActorSystem, reg *Registry) {
		// Given a factory that calls runtime.Goexit on its first run
		// When a key is called
		_, err := reg.Call(context.Background(), "k", 1)

		// Then the call fails at once with ErrFactory
		require.ErrorIs(t, err, ErrFactory)
		require.True(t, errors.Is(err, errGoexit), "%v", err)
		// and the next call runs the factory again
		v, err := reg.Call(context.Background(), "k", 1)
		require.NoError(t, err)
		require.Equal(t, "ok", v)
	}, WithFactory(factory))
}
