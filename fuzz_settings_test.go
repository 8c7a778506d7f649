package tripwire_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// FuzzSettings checks Register's settings validation: a negative Threshold,
// OpenTimeout or CallTimeout is ErrInvalidSettings and registers nothing;
// any other settings register a breaker that starts closed and idle.
func FuzzSettings(f *testing.F) {
	f.Add(0, int64(0), int64(0))
	f.Add(1, int64(time.Second), int64(time.Second))
	f.Add(3, int64(30*time.Second), int64(5*time.Second))
	f.Add(-1, int64(0), int64(0))
	f.Add(0, int64(-1), int64(0))
	f.Add(0, int64(0), int64(-1))
	f.Add(math.MinInt, int64(math.MinInt64), int64(math.MinInt64))
	f.Add(math.MaxInt, int64(math.MaxInt64), int64(1))
	f.Add(1, int64(1), int64(1))
	reg := fuzzRegistry(f)
	f.Fuzz(func(t *testing.T, threshold int, openTimeout, callTimeout int64) {
		const key = "fuzz"
		s := tripwire.Settings{
			Threshold: threshold, OpenTimeout: time.Duration(openTimeout), CallTimeout: time.Duration(callTimeout),
		}
		err := reg.Register(context.Background(), key, okTarget, s)
		if threshold < 0 || openTimeout < 0 || callTimeout < 0 {
			if !errors.Is(err, tripwire.ErrInvalidSettings) {
				t.Fatalf("Register(%+v) = %v, want ErrInvalidSettings", s, err)
			}
			if slices.Contains(reg.Keys(), key) {
				t.Fatalf("Keys() lists %q after invalid settings %+v", key, s)
			}
			if _, err := reg.State(key); !errors.Is(err, tripwire.ErrUnknownKey) {
				t.Fatalf("State after invalid settings: %v, want ErrUnknownKey", err)
			}
			return
		}
		if err != nil {
			t.Fatalf("Register(%+v) = %v, want success", s, err)
		}
		defer func() {
			if err := reg.Unregister(context.Background(), key); err != nil {
				t.Fatalf("Unregister: %v", err)
			}
		}()
		snap, err := reg.Snapshot(context.Background(), key)
		if err != nil {
			t.Fatalf("Snapshot(%+v): %v", s, err)
		}
		if snap.State != state.Closed || snap.Failures != 0 || snap.InFlight != 0 || snap.Restarts != 0 {
			t.Fatalf("new breaker with %+v: %+v, want closed and idle", s, snap)
		}
	})
}
