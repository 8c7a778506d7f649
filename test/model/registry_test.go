// Soak: go test ./test/model -run TestRegistryModel -rapid.checks=20000
//
// A failure prints the shrunk sequence of operations, each logged with its
// fake-time instant, and a -rapid.failfile to replay it; -rapid.shrinktime=5m
// shrinks a long sequence further. -rapid.steps sets the average number of
// steps of a case (150 here unless given).

package model

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"pgregory.net/rapid"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/hook"
	"github.com/tripwire-go/tripwire/internal/system"
	"github.com/tripwire-go/tripwire/state"
)

// TestRegistryModel runs random sequences of operations against the real
// registry, each case in its own synctest bubble, with the plain model of
// model_test.go beside it. Operations: Register (a function, actor or dead
// actor target, drawn settings), Unregister, Call and Request with a target
// that succeeds, is slow, fails, panics, hangs or returns an error that
// Classify may Ignore (sometimes with a context deadline before the call
// timeout), Cancel a call, Crash a breaker (up to 12 times in a row),
// ForceOpen/ForceClose/Reset, Update a key's settings, Snapshot, Shutdown,
// and fake-time advances. Settings are drawn with a count failure-rate
// Window, SlowCall, Backoff (Multiplier 2, a Max, no Jitter), Classify,
// HalfOpenProbes, MaxInFlight and IdleTimeout, or without them; in half the
// cases every key is hot from its first success on. After every
// step it checks that the registry agrees with the model: every call's result
// and the instant it arrived, which calls reached the target, each key's
// state, failure count, opened-at, retry-at, calls in flight and restart
// count, and the set of keys; Update also checks the transition it announces.
// Advances aim at the instants where timers are due, stale ones included, and
// 1ns either side, so a stale timer that changed anything, or a timer a
// nanosecond early or late, shows up as a mismatch.
func TestRegistryModel(t *testing.T) {
	var (
		mu    sync.Mutex
		tally = map[string]int{}
	)
	defer func() {
		if !t.Failed() {
			t.Logf("what the cases did, in all: %v", tally)
		}
	}()
	rapid.Check(t, func(t *rapid.T) {
		// Half the cases make every key hot after its first success, so
		// that its workers take its quiet successes (actor/hotlane.go).
		if rapid.Bool().Draw(t, "hot") {
			defer hook.HotCalls(1)()
		}
		rapid.SyncTest(t, func(t *rapid.T) {
			s := start(t)
			defer func() {
				mu.Lock()
				defer mu.Unlock()
				tally["steps"] += s.steps
				for k, n := range s.m.tally {
					tally[k] += n
				}
			}()
			for _, key := range modelKeys {
				s.register(t, key, drawSettings(t))
			}
			s.shutdownNotBefore = rapid.IntRange(0, 1000).Draw(t, "shutdownNotBefore")
			t.Repeat(map[string]func(*rapid.T){
				"":               s.Check,
				"Register":       s.step(s.Register),
				"Unregister":     s.step(s.Unregister),
				"CallSucceeds":   s.step(s.CallSucceeds),
				"CallIsSlow":     s.step(s.CallIsSlow),
				"CallFails":      s.step(s.CallFails),
				"CallPanics":     s.step(s.CallPanics),
				"CallHangs":      s.step(s.CallHangs),
				"CallIgnored":    s.step(s.CallIgnored),
				"Update":         s.step(s.Update),
				"Request":        s.step(s.Request),
				"Cancel":         s.step(s.Cancel),
				"Crash":          s.step(s.Crash),
				"Force":          s.step(s.Force),
				"AdvanceToEvent": s.step(s.AdvanceToEvent),
				"AdvanceBy":      s.step(s.AdvanceBy),
				"Shutdown":       s.step(s.Shutdown),
				"Snapshot":       s.step(s.Snapshot),
			})
		})
	})
}

// start creates the actor system and the registry inside the bubble, and
// registers their shutdown as a cleanup.
func start(t *rapid.T) *machine {
	sys := system.New(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
	reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	s := &machine{
		t0: time.Now(), m: newModel(time.Now()), sys: sys, reg: reg,
		invoked: map[int]int{}, requests: map[int]*realCall{},
	}
	s.actorPID = s.spawnTargetActor()
	s.askerPID = sys.Root.Spawn(actor.PropsFromFunc(s.asker))
	unsubscribe := reg.Subscribe(func(tr state.Transition) {
		if tr.Reason == state.ReasonUpdated {
			s.mu.Lock()
			s.updates = append(s.updates, tr)
			s.mu.Unlock()
		}
	})
	t.Cleanup(func() {
		unsubscribe()
		if err := reg.Shutdown(context.Background()); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		for _, c := range s.calls {
			c.cancel()
		}
		sys.Shutdown()
		// Twice: a dead letter at the very end of the first minute starts
		// a throttle goroutine that the second sleep lets finish.
		for range 2 {
			time.Sleep(time.Minute)
			synctest.Wait()
		}
	})
	return s
}

// step counts the steps a case has taken.
func (s *machine) step(op func(*rapid.T)) func(*rapid.T) {
	return func(t *rapid.T) {
		if !s.m.shutdown {
			s.m.tally["steps before shutdown"]++
		}
		op(t)
		s.steps++
	}
}

// Check compares the registry with the model after every step.
func (s *machine) Check(t *rapid.T) {
	synctest.Wait()
	if s.tie {
		s.m.tally["discarded for a tie"]++
		t.Skip("an idle check fell on the instant a call of its breaker ended")
	}
	if now := time.Now(); !now.Equal(s.m.now) {
		t.Fatalf("fake time is +%v, the model's +%v", s.since(now), s.since(s.m.now))
	}
	s.mu.Lock()
	faults := s.faults
	s.mu.Unlock()
	if len(faults) > 0 {
		t.Fatalf("%s", strings.Join(faults, "; "))
	}
	s.checkCalls(t)
	if got, want := s.reg.Keys(), s.m.keys(); !slices.Equal(got, want) {
		t.Fatalf("Keys() = %q, the model has %q", got, want)
	}
	for _, key := range modelKeys {
		s.checkKey(t, key, false)
	}
}

// checkCalls compares every call's result, and the instant it arrived, with
// the model's, and checks that exactly the forwarded calls reached the target.
func (s *machine) checkCalls(t *rapid.T) {
	s.mu.Lock()
	invoked := make(map[int]int, len(s.invoked))
	for id, n := range s.invoked {
		invoked[id] = n
	}
	s.mu.Unlock()
	for id, mc := range s.m.calls {
		if want := map[bool]int{true: 1}[mc.b != nil && mc.b.s.target != deadTarget]; invoked[id] != want {
			t.Fatalf("call #%d reached the target %d times, the model says %d", id, invoked[id], want)
		}
		rc := s.calls[id]
		if rc.checked {
			continue
		}
		select {
		case <-rc.done:
		default:
			if mc.inFlight {
				continue
			}
			t.Fatalf("call #%d (%q, %v after %v) is still waiting; the model says %v at +%v",
				id, mc.key, mc.beh.kind, mc.beh.delay, mc.res, s.since(mc.at))
		}
		got := classify(rc.err)
		if rc.err == nil {
			got = gotValue
		}
		switch {
		case mc.inFlight:
			t.Fatalf("call #%d (%q, %v after %v) returned %v (%v) at +%v; the model says it is in flight",
				id, mc.key, mc.beh.kind, mc.beh.delay, got, rc.err, s.since(rc.at))
		case got != mc.res || !rc.at.Equal(mc.at):
			t.Fatalf("call #%d (%q, %v after %v) returned %v (%v) at +%v; the model says %v at +%v",
				id, mc.key, mc.beh.kind, mc.beh.delay, got, rc.err, s.since(rc.at), mc.res, s.since(mc.at))
		case got == gotValue && rc.v != valueOf(id):
			t.Fatalf("call #%d returned the value %v, want %v", id, rc.v, valueOf(id))
		case got != gotValue && rc.v != nil:
			t.Fatalf("call #%d returned the value %v with the error %v", id, rc.v, rc.err)
		}
		rc.checked = true
	}
}

// checkKey compares Snapshot and State of key with the model's breaker. It
// reads only State of a key the model says is passivated unless wake is
// set (the Snapshot operation), because Snapshot wakes it.
func (s *machine) checkKey(t *rapid.T, key string, wake bool) {
	b := s.m.breakers[key]
	if b != nil && b.passivated && !wake {
		if st, err := s.reg.State(key); err != nil || st != state.Closed {
			t.Fatalf("%q is passivated: State()=%v, %v; want closed", key, st, err)
		}
		return
	}
	snap, snapErr := s.reg.Snapshot(context.Background(), key) // first: it may wake the key
	st, stErr := s.reg.State(key)
	if b == nil {
		k := gotUnknownKey
		if s.m.shutdown {
			k = gotShutdown
		}
		want(t, "State("+key+")", stErr, k)
		want(t, "Snapshot("+key+")", snapErr, k)
		return
	}
	if stErr != nil || snapErr != nil {
		t.Fatalf("%q: State: %v, Snapshot: %v", key, stErr, snapErr)
	}
	wantSnap := tripwire.Snapshot{
		Key: key, State: b.state, Failures: b.failures,
		OpenedAt: b.openedAt, RetryAt: b.retryAt,
		InFlight: s.m.inFlight(b), Restarts: b.restarts,
	}
	if st != b.state || !sameSnapshot(snap, wantSnap) {
		t.Fatalf("%q: State()=%v, Snapshot=%s; the model says %s", key, st, s.fmtSnap(snap), s.fmtSnap(wantSnap))
	}
}

// sameSnapshot compares the fields of snapshots the model keeps, their
// instants with time.Time.Equal.
func sameSnapshot(a, b tripwire.Snapshot) bool {
	return a.OpenedAt.Equal(b.OpenedAt) && a.RetryAt.Equal(b.RetryAt) && a.Key == b.Key &&
		a.State == b.State && a.Failures == b.Failures && a.InFlight == b.InFlight && a.Restarts == b.Restarts
}

func (s *machine) fmtSnap(x tripwire.Snapshot) string {
	at := func(t time.Time) any {
		if t.IsZero() {
			return "-"
		}
		return s.since(t)
	}
	return fmt.Sprintf("{%v failures=%d openedAt=%v retryAt=%v inFlight=%d restarts=%d}",
		x.State, x.Failures, at(x.OpenedAt), at(x.RetryAt), x.InFlight, x.Restarts)
}
