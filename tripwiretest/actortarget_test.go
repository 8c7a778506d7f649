package tripwiretest_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// spawnTarget starts the script's echo actor as name and puts a breaker in front of it.
func spawnTarget(t *testing.T, e *testkit.Env, s *tripwiretest.Script, name string, set tripwire.Settings) *actor.PID {
	t.Helper()
	pid, err := s.Spawn(e.Sys, name)
	if err != nil {
		t.Fatalf("Spawn(%q): %v", name, err)
	}
	testkit.Register(t, e.Reg, name, tripwire.ActorTarget(pid), set)
	return pid
}

// roomy keeps the breaker closed through a test's failures.
var roomy = tripwire.Settings{Threshold: 100, CallTimeout: time.Second}

func TestActorTargetAnswersFailsAndRepliesErrorValues(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given an actor target with an inner that refuses "nope"
		s := tripwiretest.New()
		errNope := errors.New("nope")
		pid, err := e.Sys.Root.SpawnNamed(s.Props(func(_ context.Context, msg any) (any, error) {
			if msg == "nope" {
				return nil, errNope
			}
			return "re:" + msg.(string), nil
		}), "svc")
		if err != nil {
			t.Fatal(err)
		}
		testkit.Register(t, e.Reg, "svc", tripwire.ActorTarget(pid), roomy)
		// When it is healthy, Then it answers with inner's value
		if v, err := e.Reg.Call(ctx, "svc", "hi"); v != "re:hi" || err != nil {
			t.Fatalf("healthy: %v, %v", v, err)
		}
		// and inner's error comes back as the call's error
		if _, err := e.Reg.Call(ctx, "svc", "nope"); !errors.Is(err, errNope) {
			t.Fatalf("inner error: %v", err)
		}
		// When the script fails the next call, Then the reply is an injected failure
		must(t, s.FailNext(1))
		if _, err := e.Reg.Call(ctx, "svc", "hi"); !errors.Is(err, tripwiretest.ErrInjected) {
			t.Fatalf("injected: %v", err)
		}
		// and the breaker counted both error replies as consecutive failures
		synctest.Wait()
		if snap, _ := e.Reg.Snapshot(context.Background(), "svc"); snap.Failures != 2 {
			t.Fatalf("breaker counts %d consecutive failures, want 2", snap.Failures)
		}
		if c := s.Counts(); c != (tripwiretest.Counts{Calls: 3, Failures: 1}) {
			t.Fatalf("Counts() = %+v", c)
		}
	})
}

func TestActorTargetLatencyDoesNotBlockOtherRequests(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given an actor target with 400 ms of latency
		s := tripwiretest.New()
		spawnTarget(t, e, s, "slow", roomy)
		must(t, s.Latency(400*time.Millisecond))
		start := time.Now()
		// When three calls arrive 100 ms apart
		var calls []<-chan testkit.Result
		for i := range 3 {
			calls = append(calls, testkit.Go(func() (any, error) { return e.Reg.Call(ctx, "slow", i) }))
			time.Sleep(100 * time.Millisecond)
		}
		// Then each is answered 400 ms after it arrived, not after the one before it
		for i, ch := range calls {
			r := testkit.Await(t, ch)
			if r.Err != nil || r.V != i {
				t.Fatalf("call %d: %v, %v", i, r.V, r.Err)
			}
			if got, want := r.At.Sub(start), time.Duration(i)*100*time.Millisecond+400*time.Millisecond; got != want {
				t.Fatalf("call %d answered at %v, want %v", i, got, want)
			}
		}
	})
}

func TestActorTargetHangTimesOutAndReleaseResumes(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a hanging actor target behind a breaker with a 1 s call timeout
		s := tripwiretest.New()
		spawnTarget(t, e, s, "stuck", roomy)
		s.Hang()
		start := time.Now()
		hung := testkit.Go(func() (any, error) { return e.Reg.Call(ctx, "stuck", "a") })
		// When 1 s - 1 ns passes, Then the call still waits
		time.Sleep(time.Second - time.Nanosecond)
		testkit.StillPending(t, hung, "a hung call")
		// and at 1 s the breaker answers ErrTimeout
		if r := testkit.Await(t, hung); !errors.Is(r.Err, tripwire.ErrTimeout) || r.At.Sub(start) != time.Second {
			t.Fatalf("hung call: %v after %v", r.Err, r.At.Sub(start))
		}
		// When the script is released, Then the actor answers again
		s.Release()
		if v, err := e.Reg.Call(ctx, "stuck", "b"); v != "b" || err != nil {
			t.Fatalf("after Release: %v, %v", v, err)
		}
		if c := s.Counts(); c.Hangs != 1 || c.Calls != 2 {
			t.Fatalf("Counts() = %+v", c)
		}
	})
}

func TestActorTargetPanicRestartsTheActorAndTheCallTimesOut(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given an actor target that panics on its next request
		s := tripwiretest.New()
		spawnTarget(t, e, s, "fragile", roomy)
		must(t, s.PanicNext(1))
		// When it is called, Then the request is lost and the call times out
		if _, err := e.Reg.Call(ctx, "fragile", "a"); !errors.Is(err, tripwire.ErrTimeout) {
			t.Fatalf("panicking call: %v", err)
		}
		// and the restarted actor answers the next one
		if v, err := e.Reg.Call(ctx, "fragile", "b"); v != "b" || err != nil {
			t.Fatalf("after the restart: %v, %v", v, err)
		}
		if c := s.Counts(); c.Panics != 1 {
			t.Fatalf("Counts() = %+v", c)
		}
	})
}

// unwatched is roomy without the breaker's watch of its actor target, so a
// dead target shows in the calls' errors instead of opening the circuit.
var unwatched = tripwire.Settings{Threshold: 100, CallTimeout: time.Second, IgnoreTargetDown: true}

func TestActorTargetDieStopsTheActor(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given two running actor targets of one script, one of them behind a
		// breaker that watches it (the default) and one behind a breaker that does not
		s := tripwiretest.New()
		spawnTarget(t, e, s, "watched", roomy)
		spawnTarget(t, e, s, "unwatched", unwatched)
		for _, key := range []string{"watched", "unwatched"} {
			if _, err := e.Reg.Call(ctx, key, 1); err != nil {
				t.Fatalf("%s before Die: %v", key, err)
			}
		}
		// When the script dies
		s.Die()
		synctest.Wait()
		// Then both actors have stopped: the watching breaker opened at once,
		if st, _ := e.Reg.State("watched"); st != state.Open {
			t.Fatalf("watched after Die: state %v, want open", st)
		}
		if _, err := e.Reg.Call(ctx, "watched", 2); !errors.Is(err, tripwire.ErrOpen) {
			t.Fatalf("watched after Die: %v", err)
		}
		// and calls to the other get ErrTargetDown
		if _, err := e.Reg.Call(ctx, "unwatched", 2); !errors.Is(err, tripwire.ErrTargetDown) {
			t.Fatalf("unwatched after Die: %v", err)
		}
		// When it is revived, Then the stopped actor stays stopped
		s.Revive()
		if _, err := e.Reg.Call(ctx, "unwatched", 3); !errors.Is(err, tripwire.ErrTargetDown) {
			t.Fatalf("unwatched after Revive: %v", err)
		}
		// but actors spawned again under the names answer (the watched one
		// once its circuit lets a probe through)
		for _, key := range []string{"watched", "unwatched"} {
			if _, err := s.Spawn(e.Sys, key); err != nil {
				t.Fatalf("respawn %s: %v", key, err)
			}
		}
		if v, err := e.Reg.Call(ctx, "unwatched", 4); v != 4 || err != nil {
			t.Fatalf("unwatched respawned: %v, %v", v, err)
		}
		time.Sleep(state.DefaultOpenTimeout + time.Millisecond)
		if v, err := e.Reg.Call(ctx, "watched", 5); v != 5 || err != nil {
			t.Fatalf("watched respawned: %v, %v", v, err)
		}
		if c := s.Counts(); c.Downs != 0 || c.Calls != 4 {
			t.Fatalf("Counts() = %+v: calls to stopped actors never reach the script", c)
		}
	})
}

func TestActorTargetStartedWhileDeadAnswersDownThenStops(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a dead script and an actor target spawned after it died
		s := tripwiretest.New()
		s.Die()
		spawnTarget(t, e, s, "late", unwatched)
		// When it is called, Then it answers ErrDown and stops itself
		if _, err := e.Reg.Call(ctx, "late", 1); !errors.Is(err, tripwiretest.ErrDown) {
			t.Fatalf("first call: %v", err)
		}
		synctest.Wait()
		if _, err := e.Reg.Call(ctx, "late", 2); !errors.Is(err, tripwire.ErrTargetDown) {
			t.Fatalf("second call: %v", err)
		}
		if c := s.Counts(); c.Downs != 1 || c.Calls != 1 {
			t.Fatalf("Counts() = %+v", c)
		}
	})
}

func TestSpawnRejectsMissingArguments(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		s := tripwiretest.New()
		// When Spawn gets no system or no name, Then it is ErrInvalid
		if _, err := s.Spawn(nil, "x"); !errors.Is(err, tripwiretest.ErrInvalid) {
			t.Fatalf("nil system: %v", err)
		}
		if _, err := s.Spawn(e.Sys, ""); !errors.Is(err, tripwiretest.ErrInvalid) {
			t.Fatalf("empty name: %v", err)
		}
		// and a name in use is protoactor's error
		if _, err := s.Spawn(e.Sys, "twice"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Spawn(e.Sys, "twice"); err == nil {
			t.Fatalf("second Spawn under one name succeeded")
		}
	})
}
