package tripwire_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// badFixture is a registry with two healthy keys, "fn" (a function target)
// and "act" (an echo actor), and an actor that can call Request.
type badFixture struct {
	t         *testing.T
	sys       *actor.ActorSystem
	reg       *tripwire.Registry
	fn        *scripted
	echoCalls atomic.Int64
	echo      *actor.PID
	requester *actor.PID
	made      atomic.Int64 // runs of factory
}

// factory is the Factory bad CallWith cases pass; it must never run.
func (f *badFixture) factory(context.Context, string) (tripwire.Target, tripwire.Settings, error) {
	f.made.Add(1)
	return f.fn.target(), tripwire.Settings{}, nil
}

// requestCmd asks the requester actor to call Request from inside its turn.
type requestCmd struct {
	key string
	msg any
	err chan error
}

func newBadFixture(t *testing.T) *badFixture {
	f := &badFixture{t: t, sys: newSystem(), fn: newScripted()}
	reg, err := tripwire.Start(tripwire.WithActorSystem(f.sys))
	require.NoError(t, err)
	f.reg = reg
	f.echo = spawnEcho(f.sys, &f.echoCalls)
	f.requester = f.sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if cmd, ok := c.Message().(*requestCmd); ok {
			cmd.err <- f.reg.Request(c, cmd.key, cmd.msg)
		}
	}))
	require.NoError(t, reg.Register(context.Background(), "fn", f.fn.target(), tripwire.Settings{}))
	require.NoError(t, reg.Register(context.Background(), "act", tripwire.ActorTarget(f.echo), tripwire.Settings{}))
	return f
}

// request runs Request(actorCtx, key, msg) inside an actor and returns its error.
func (f *badFixture) request(key string, msg any) error {
	errc := make(chan error, 1)
	f.sys.Root.Send(f.requester, &requestCmd{key: key, msg: msg, err: errc})
	return <-errc
}

// close shuts everything down and lets protoactor's throttle goroutine end,
// as a synctest bubble requires.
func (f *badFixture) close() {
	require.NoError(f.t, f.reg.Shutdown(context.Background()))
	f.sys.Shutdown()
	time.Sleep(time.Minute)
	synctest.Wait()
}

// requireUntouched checks that the registry still holds exactly its two
// healthy keys, closed and idle, and still serves both.
func (f *badFixture) requireUntouched() {
	t := f.t
	require.Equal(t, []string{"act", "fn"}, f.reg.Keys())
	for _, key := range []string{"act", "fn"} {
		s, err := f.reg.Snapshot(context.Background(), key)
		require.NoError(t, err)
		require.Equal(t, key, s.Key)
		require.Equal(t, state.Closed, s.State)
		require.Zero(t, s.Failures+s.InFlight+s.Restarts)
		// bad input counted neither way: only the checks' own successes
		require.Equal(t, s.Stats.Total.Successes, s.Stats.Total.Calls, "%+v", s.Stats.Total)
	}
	v, err := f.reg.Call(context.Background(), "fn", 1)
	require.NoError(t, err)
	require.Equal(t, "ok 1", v)
	v, err = f.reg.Call(context.Background(), "act", "ping")
	require.NoError(t, err)
	require.Equal(t, "ping", v)
}

type badCase struct {
	name          string
	afterShutdown bool
	do            func(f *badFixture) error
	want          error
}

func callErr(f *badFixture, ctx context.Context, key string, msg any) error {
	_, err := f.reg.Call(ctx, key, msg)
	return err
}

// keyCases returns one case per operation that takes a key, each given key
// and expected to fail with want.
func keyCases(label, key string, want error) []badCase {
	ops := []struct {
		name string
		do   func(f *badFixture, key string) error
	}{
		{"Register", func(f *badFixture, k string) error {
			return f.reg.Register(context.Background(), k, f.fn.target(), tripwire.Settings{})
		}},
		{"Call", func(f *badFixture, k string) error { return callErr(f, context.Background(), k, "x") }},
		{"CallAs", func(f *badFixture, k string) error {
			_, err := tripwire.Key[any, string](f.reg, k).Call(context.Background(), "x")
			return err
		}},
		{"Request", func(f *badFixture, k string) error { return f.request(k, "x") }},
		{"State", func(f *badFixture, k string) error { _, err := f.reg.State(k); return err }},
		{"Snapshot", func(f *badFixture, k string) error { _, err := f.reg.Snapshot(context.Background(), k); return err }},
		{"Unregister", func(f *badFixture, k string) error { return f.reg.Unregister(context.Background(), k) }},
		{"Crash", func(f *badFixture, k string) error { return tripwiretest.Crash(context.Background(), f.reg, k) }},
		{"ForceOpen", func(f *badFixture, k string) error { return f.reg.ForceOpen(context.Background(), k) }},
		{"ForceClose", func(f *badFixture, k string) error { return f.reg.ForceClose(context.Background(), k) }},
		{"Reset", func(f *badFixture, k string) error { return f.reg.Reset(context.Background(), k) }},
		{"ProbeNow", func(f *badFixture, k string) error { return f.reg.ProbeNow(context.Background(), k) }},
		{"CallWith", func(f *badFixture, k string) error {
			_, err := f.reg.CallWith(context.Background(), k, "x", f.factory)
			return err
		}},
	}
	var cases []badCase
	for _, op := range ops {
		if (op.name == "Register" || op.name == "CallWith") && errors.Is(want, tripwire.ErrUnknownKey) {
			continue // registering an unknown key is the normal case
		}
		cases = append(cases, badCase{
			name: op.name + " " + label,
			do:   func(f *badFixture) error { return op.do(f, key) },
			want: want,
		})
	}
	return cases
}

func badInputCases() []badCase {
	var cases []badCase
	for _, k := range []struct{ label, key string }{
		{"empty key", ""},
		{"key of 257 bytes", strings.Repeat("k", 256+1)},
		{"key with a newline", "a\nb"},
		{"key with a NUL", "a\x00b"},
		{"key with invalid UTF-8", "a\xffb"},
	} {
		cases = append(cases, keyCases(k.label, k.key, tripwire.ErrInvalidKey)...)
	}
	cases = append(cases, keyCases("unknown key", "nobody", tripwire.ErrUnknownKey)...)

	register := func(key string, target func(f *badFixture) tripwire.Target, s tripwire.Settings) func(f *badFixture) error {
		return func(f *badFixture) error { return f.reg.Register(context.Background(), key, target(f), s) }
	}
	fnTarget := func(f *badFixture) tripwire.Target { return f.fn.target() }
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Unix(0, 0))
	cancel2()
	cases = append(cases, []badCase{
		{name: "Register of a taken key", want: tripwire.ErrDuplicateKey,
			do: register("fn", fnTarget, tripwire.Settings{Threshold: 2})},
		{name: "Register of a taken key with the same config", want: tripwire.ErrDuplicateKey,
			do: register("act", func(f *badFixture) tripwire.Target { return tripwire.ActorTarget(f.echo) }, tripwire.Settings{})},
		{name: "nil Target", want: tripwire.ErrInvalidTarget,
			do: register("new", func(*badFixture) tripwire.Target { return nil }, tripwire.Settings{})},
		{name: "ActorTarget(nil)", want: tripwire.ErrInvalidTarget,
			do: register("new", func(*badFixture) tripwire.Target { return tripwire.ActorTarget(nil) }, tripwire.Settings{})},
		{name: "ActorTarget of a PID without an id", want: tripwire.ErrInvalidTarget,
			do: register("new", func(*badFixture) tripwire.Target { return tripwire.ActorTarget(&actor.PID{}) }, tripwire.Settings{})},
		{name: "Func(nil)", want: tripwire.ErrInvalidTarget,
			do: register("new", func(*badFixture) tripwire.Target { return tripwire.Func[any, any](nil) }, tripwire.Settings{})},
		{name: "ActorTarget of the registry's supervisor", want: tripwire.ErrInvalidTarget,
			do: register("new", func(f *badFixture) tripwire.Target {
				sup, _ := ownPIDs(f.t, f.sys)
				return tripwire.ActorTarget(sup)
			}, tripwire.Settings{})},
		{name: "ActorTarget of one of the registry's breakers", want: tripwire.ErrInvalidTarget,
			do: register("new", func(f *badFixture) tripwire.Target {
				_, brk := ownPIDs(f.t, f.sys)
				return tripwire.ActorTarget(brk)
			}, tripwire.Settings{})},
		{name: "negative Threshold", want: tripwire.ErrInvalidSettings,
			do: register("new", fnTarget, tripwire.Settings{Threshold: -1})},
		{name: "negative OpenTimeout", want: tripwire.ErrInvalidSettings,
			do: register("new", fnTarget, tripwire.Settings{OpenTimeout: -time.Nanosecond})},
		{name: "negative CallTimeout", want: tripwire.ErrInvalidSettings,
			do: register("new", fnTarget, tripwire.Settings{CallTimeout: -time.Nanosecond})},
		{name: "Call with a nil context", want: tripwire.ErrNilContext,
			do: func(f *badFixture) error { return callErr(f, nil, "fn", "x") }}, //nolint:staticcheck // the bad input under test
		{name: "CallAs with a nil context", want: tripwire.ErrNilContext,
			do: func(f *badFixture) error {
				_, err := tripwire.Key[any, string](f.reg, "fn").Call(nil, "x") //nolint:staticcheck // the bad input under test
				return err
			}},
		{name: "Call of a function target with a cancelled context", want: context.Canceled,
			do: func(f *badFixture) error { return callErr(f, cancelled, "fn", "x") }},
		{name: "Call of an actor target with a cancelled context", want: context.Canceled,
			do: func(f *badFixture) error { return callErr(f, cancelled, "act", "x") }},
		{name: "Call with a context past its deadline", want: context.DeadlineExceeded,
			do: func(f *badFixture) error { return callErr(f, expired, "fn", "x") }},
		{name: "Call of an actor target with a nil message", want: tripwire.ErrInvalidMessage,
			do: func(f *badFixture) error { return callErr(f, context.Background(), "act", nil) }},
		{name: "Request to an actor target with a nil message", want: tripwire.ErrInvalidMessage,
			do: func(f *badFixture) error { return f.request("act", nil) }},
		{name: "Request with a nil actor context", want: tripwire.ErrNilContext,
			do: func(f *badFixture) error { return f.reg.Request(nil, "fn", "x") }},
		{name: "CallAs on a nil registry", want: tripwire.ErrInvalidOption,
			do: func(*badFixture) error {
				_, err := tripwire.Key[any, string](nil, "fn").Call(context.Background(), "x")
				return err
			}},
		{name: "Start with WithLogger(nil)", want: tripwire.ErrInvalidOption,
			do: func(f *badFixture) error {
				_, err := tripwire.Start(tripwire.WithActorSystem(f.sys), tripwire.WithLogger(nil))
				return err
			}},
		{name: "Start with a nil Option", want: tripwire.ErrInvalidOption,
			do: func(f *badFixture) error { _, err := tripwire.Start(tripwire.WithActorSystem(f.sys), nil); return err }},
		{name: "CallWith with a nil Factory", want: tripwire.ErrInvalidOption,
			do: func(f *badFixture) error { _, err := f.reg.CallWith(context.Background(), "new", "x", nil); return err }},
		{name: "CallWith with a nil context", want: tripwire.ErrNilContext,
			do: func(f *badFixture) error { _, err := f.reg.CallWith(nil, "new", "x", f.factory); return err }}, //nolint:staticcheck // the bad input under test
		{name: "CallWith with a cancelled context", want: context.Canceled,
			do: func(f *badFixture) error { _, err := f.reg.CallWith(cancelled, "new", "x", f.factory); return err }},
		{name: "Shutdown with a nil context", want: tripwire.ErrNilContext,
			do: func(f *badFixture) error { return f.reg.Shutdown(nil) }}, //nolint:staticcheck // the bad input under test
	}...)

	for _, c := range []badCase{
		{name: "Register", do: register("new", fnTarget, tripwire.Settings{})},
		{name: "Unregister", do: func(f *badFixture) error { return f.reg.Unregister(context.Background(), "fn") }},
		{name: "Call", do: func(f *badFixture) error { return callErr(f, context.Background(), "fn", "x") }},
		{name: "CallAs", do: func(f *badFixture) error {
			_, err := tripwire.Key[any, string](f.reg, "act").Call(context.Background(), "x")
			return err
		}},
		{name: "Request", do: func(f *badFixture) error { return f.request("act", "x") }},
		{name: "State", do: func(f *badFixture) error { _, err := f.reg.State("fn"); return err }},
		{name: "Snapshot", do: func(f *badFixture) error { _, err := f.reg.Snapshot(context.Background(), "fn"); return err }},
		{name: "Crash", do: func(f *badFixture) error { return tripwiretest.Crash(context.Background(), f.reg, "fn") }},
		{name: "ProbeNow", do: func(f *badFixture) error { return f.reg.ProbeNow(context.Background(), "fn") }},
		{name: "CallWith", do: func(f *badFixture) error {
			_, err := f.reg.CallWith(context.Background(), "new", "x", f.factory)
			return err
		}},
	} {
		c.name += " after Shutdown"
		c.afterShutdown, c.want = true, tripwire.ErrShutdown
		cases = append(cases, c)
	}
	return cases
}

// TestBadInput: every bad input is answered with its sentinel error, the
// target is never called and the registry is left as it was.
func TestBadInput(t *testing.T) {
	for _, tc := range badInputCases() {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				// Given a registry with two healthy keys (shut down, for some cases)
				f := newBadFixture(t)
				defer f.close()
				if tc.afterShutdown {
					require.NoError(t, f.reg.Shutdown(context.Background()))
				}

				// When the bad input is given
				err := tc.do(f)
				synctest.Wait() // anything it set off has run

				// Then it fails with the sentinel and changes nothing
				require.ErrorIs(t, err, tc.want)
				require.Zero(t, f.fn.calls.Load(), "function target called")
				require.Zero(t, f.echoCalls.Load(), "actor target called")
				require.Zero(t, f.made.Load(), "factory run")
				if tc.afterShutdown {
					require.Empty(t, f.reg.Keys())
					return
				}
				f.requireUntouched()
			})
		})
	}
}

// TestKeyLimitsAccept: the longest key and non-ASCII keys are valid, so the
// limits in TestBadInput sit exactly at the boundary.
func TestKeyLimitsAccept(t *testing.T) {
	reg, _ := start(t)
	for _, key := range []string{strings.Repeat("k", 256), "k", "clé-ключ-鍵 with spaces"} {
		require.NoError(t, reg.Register(context.Background(), key, newScripted().target(), tripwire.Settings{}), "key %q", key)
		v, err := reg.Call(context.Background(), key, 7)
		require.NoError(t, err)
		require.Equal(t, "ok 7", v)
	}
}

// TestConcurrentRegisterOfOneKey: of 20 concurrent Registers of one key
// exactly one wins, and its target is the one that serves the key.
func TestConcurrentRegisterOfOneKey(t *testing.T) {
	// Given a registry and 20 goroutines, each with its own target
	reg, _ := start(t)
	const n = 20
	errs := make([]error, n)
	var ready, done sync.WaitGroup
	gate := make(chan struct{})
	ready.Add(n)
	done.Add(n)
	for i := range n {
		go func() {
			defer done.Done()
			target := tripwire.Func(func(context.Context, any) (any, error) { return i, nil })
			ready.Done()
			<-gate
			errs[i] = reg.Register(context.Background(), "hot", target, tripwire.Settings{})
		}()
	}

	// When they all register the same key at once
	ready.Wait()
	close(gate)
	done.Wait()

	// Then exactly one gets nil and the rest ErrDuplicateKey
	winner := -1
	for i, err := range errs {
		if err == nil {
			require.Equal(t, -1, winner, "two Registers won: %d and %d", winner, i)
			winner = i
			continue
		}
		require.ErrorIs(t, err, tripwire.ErrDuplicateKey)
	}
	require.NotEqual(t, -1, winner, "no Register won")
	require.Equal(t, []string{"hot"}, reg.Keys())
	v, err := reg.Call(context.Background(), "hot", nil)
	require.NoError(t, err)
	require.Equal(t, winner, v, "the key is served by another target than the winner's")
}
