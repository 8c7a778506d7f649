package tripwire_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

// FuzzSettingsCall checks that a call to a target that answers at once
// succeeds under any valid settings whose CallTimeout is the default or at
// least a second.
func FuzzSettingsCall(f *testing.F) {
	f.Add(0, int64(0), int64(0))
	f.Add(1, int64(time.Second), int64(time.Hour))
	// Regression: a CallTimeout within ReplyGrace of math.MaxInt64 made the
	// caller's backstop duration overflow to a negative one, so every call
	// timed out at once.
	f.Add(0, int64(0), int64(math.MaxInt64))
	f.Add(0, int64(0), int64(math.MaxInt64-10*time.Millisecond))
	reg := fuzzRegistry(f)
	f.Fuzz(func(t *testing.T, threshold int, openTimeout, callTimeout int64) {
		if threshold < 0 || openTimeout < 0 || callTimeout < 0 || (callTimeout > 0 && callTimeout < int64(time.Second)) {
			return
		}
		const key = "fuzz-call"
		s := tripwire.Settings{
			Threshold: threshold, OpenTimeout: time.Duration(openTimeout), CallTimeout: time.Duration(callTimeout),
		}
		if err := reg.Register(context.Background(), key, okTarget, s); err != nil {
			t.Fatalf("Register(%+v): %v", s, err)
		}
		defer func() {
			if err := reg.Unregister(context.Background(), key); err != nil {
				t.Fatalf("Unregister: %v", err)
			}
		}()
		if v, err := reg.Call(context.Background(), key, "ping"); err != nil || v != "ok" {
			t.Fatalf("Call with %+v = %v, %v; want ok", s, v, err)
		}
	})
}
