package cluster

import (
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/internal/testkit"
)

// eventually polls cond every 5 ms until it holds, and fails the test if it
// does not within the bound: real time, never a sleep that guesses.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	if !testkit.Poll(within, cond) {
		t.Fatalf("not within %v: %s", within, what)
	}
}

// within waits for ch to close, or fails the test after d.
func within(t *testing.T, d time.Duration, what string, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(d):
		t.Fatalf("not within %v: %s", d, what)
	}
}
