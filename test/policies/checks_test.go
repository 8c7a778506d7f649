package policies

import (
	"errors"
	"testing"
	"testing/synctest"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// wantState checks only the published state, which never wakes a key.
func wantState(t *testing.T, reg *tripwire.Registry, key string, st state.State) {
	t.Helper()
	synctest.Wait()
	got, err := reg.State(key)
	if err != nil || got != st {
		t.Fatalf("State(%q) = %v, %v; want %v", key, got, err, st)
	}
}

// wantOK fails unless a call succeeded with the default value.
func wantOK(t *testing.T, what string, v any, err error) {
	t.Helper()
	if err != nil || v != "ok" {
		t.Fatalf("%s: %v, %v; want ok", what, v, err)
	}
}

// wantErr fails unless err matches target.
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: error %v; want %v", what, err, target)
	}
}

// isOpen reports whether err is the circuit-open error.
func isOpen(err error) bool { return errors.Is(err, tripwire.ErrOpen) }

// isErr reports whether err matches target.
func isErr(err, target error) bool { return errors.Is(err, target) }
