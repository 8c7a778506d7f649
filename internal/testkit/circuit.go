package testkit

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// Snapshot returns key's snapshot, failing the test at once on an error.
func Snapshot(t *testing.T, reg *tripwire.Registry, key string) tripwire.Snapshot {
	t.Helper()
	s, err := reg.Snapshot(context.Background(), key)
	if err != nil {
		t.Fatalf("Snapshot(%q): %v", key, err)
	}
	return s
}

// WantCircuit checks both views of a key's circuit, the state the breaker
// publishes for fast fail and its own snapshot, once every goroutine of the
// bubble is blocked (so the breaker has finished the turn that answered the
// last call).
func WantCircuit(t *testing.T, reg *tripwire.Registry, key string, state state.State, failures int) tripwire.Snapshot {
	t.Helper()
	synctest.Wait()
	st, err := reg.State(key)
	if err != nil {
		t.Fatalf("State(%q): %v", key, err)
	}
	s := Snapshot(t, reg, key)
	if st != state || s.State != state || s.Failures != failures {
		t.Fatalf("%q at +%v: State()=%v, Snapshot state=%v failures=%d; want %v with %d failures",
			key, SinceStart(), st, s.State, s.Failures, state, failures)
	}
	return s
}
