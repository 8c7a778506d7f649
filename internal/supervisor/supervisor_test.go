package supervisor_test

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/supervisor"
	"github.com/tripwire-go/tripwire/state"
)

func TestACrashedBreakerRestartsClosedUnderItsPID(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a key
		e := r.register("k", 0)
		pid := e.PID()
		// When it crashes
		r.crash(e)
		// Then the same actor serves the key, closed, with the crash counted
		if s := r.snapshot(e); s.State != state.Closed || s.Failures != 0 || s.Restarts != 1 {
			t.Errorf("after a crash: %+v", s)
		}
		if e.PID() != pid || !r.alive(pid) {
			t.Errorf("the key moved from %v to %v", pid, e.PID())
		}
		if v, err := r.call(e); err != nil || v != "ok" {
			t.Errorf("call after the crash: %v, %v", v, err)
		}
	})
}

func TestTooManyCrashesRespawnTheBreakerUnderANewName(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a key
		e := r.register("k", 0)
		first := e.PID()
		// When its breaker crashes more often than protoactor allows
		// (MaxRestarts within RestartWindow)
		for range supervisor.MaxRestarts + 2 {
			r.crash(e)
		}
		// Then a fresh breaker under a new name serves the key, on the
		// same mailbox, and counts every crash
		if e.PID().Id == first.Id || r.alive(first) || !r.alive(e.PID()) {
			t.Errorf("the key is served by %v (first %v, still alive: %v)", e.PID(), first, r.alive(first))
		}
		if s := r.snapshot(e); s.State != state.Closed || s.Restarts != supervisor.MaxRestarts+2 {
			t.Errorf("after the respawn: %+v", s)
		}
		if v, err := r.call(e); err != nil || v != "ok" {
			t.Errorf("call after the respawn: %v, %v", v, err)
		}
	})
}

func TestAPassivatedKeyWakesWithItsNextCall(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a key whose breaker passivated after a second without calls
		e := r.register("k", time.Second)
		first := e.PID()
		time.Sleep(2 * time.Second)
		if r.alive(first) || !e.Cell.Passivated() {
			t.Fatalf("the idle breaker %v did not passivate", first)
		}
		// When a call comes
		v, err := r.call(e)
		// Then a new breaker took it, and serves the key
		if err != nil || v != "ok" {
			t.Errorf("call to the passivated key: %v, %v", v, err)
		}
		if e.PID().Id == first.Id || !r.alive(e.PID()) || e.Cell.Passivated() {
			t.Errorf("the key is served by %v after waking (first %v)", e.PID(), first)
		}
	})
}

func TestUnregisterEndsTheKeysMailbox(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a key, and one passivated
		live, idle := r.register("live", 0), r.register("idle", time.Second)
		time.Sleep(2 * time.Second)
		for _, key := range []string{"live", "idle"} {
			reply := make(chan error, 1)
			r.sys.Root.Send(r.sup, &supervisor.Unregister{Key: key, Reply: reply})
			if err := <-reply; err != nil {
				t.Fatalf("Unregister(%q): %v", key, err)
			}
		}
		// Then both are gone from the table, and a call to either gets ErrShutdown
		if r.keys.Len() != 0 {
			t.Errorf("%d keys left", r.keys.Len())
		}
		if _, err := r.call(live); !errors.Is(err, errs.ErrShutdown) {
			t.Errorf("call to the unregistered key: %v", err)
		}
		if _, err := r.call(idle); !errors.Is(err, errs.ErrShutdown) {
			t.Errorf("call to the unregistered passivated key: %v", err)
		}
	})
}

// An Unregister that reaches the supervisor after Shutdown began (the
// registry's Unregister passed its check just before) is refused, and the
// key stays for the registry's shutdown to end: its breaker may have
// stopped already, and nothing would answer an Unregister that waited for it.
func TestUnregisterDuringShutdownIsRefusedAndKeepsTheKey(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a key whose breaker Shutdown has stopped
		r.register("k", 0)
		drained := make(chan error, 1)
		r.sys.Root.Send(r.sup, &supervisor.Shutdown{Reply: drained})
		if err := <-drained; err != nil {
			t.Fatal(err)
		}

		// When an Unregister of it comes
		reply := make(chan error, 1)
		r.sys.Root.Send(r.sup, &supervisor.Unregister{Key: "k", Reply: reply})
		synctest.Wait()

		// Then it is answered at once, ErrShutdown, and the key is still there
		select {
		case err := <-reply:
			if !errors.Is(err, errs.ErrShutdown) {
				t.Fatalf("Unregister during Shutdown: %v, want ErrShutdown", err)
			}
		default:
			t.Fatal("Unregister during Shutdown not answered")
		}
		if n := r.keys.Len(); n != 1 {
			t.Fatalf("%d keys, want 1", n)
		}
	})
}
