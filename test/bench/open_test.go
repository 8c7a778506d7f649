package bench

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

var errBoom = errors.New("boom")

// setupOpen returns a registry whose key "down" is open: threshold 1, one
// failed call, and a recovery timeout far longer than the benchmark.
func setupOpen(tb testing.TB) *tripwire.Registry {
	reg := testkit.Start(tb, testkit.NewSystem(tb))
	fail := func(context.Context, any) (any, error) { return nil, errBoom }
	testkit.Register(tb, reg, "down", tripwire.Func(fail),
		tripwire.Settings{Threshold: 1, OpenTimeout: time.Hour, CallTimeout: callTimeout})
	if _, err := reg.Call(context.Background(), "down", msg); !errors.Is(err, errBoom) {
		tb.Fatalf("tripping call: got %v, want %v", err, errBoom)
	}
	// The breaker publishes Open right after it answered the tripping call.
	for limit := time.Now().Add(callTimeout); ; time.Sleep(time.Millisecond) {
		st, err := reg.State("down")
		if err != nil {
			tb.Fatalf("State: %v", err)
		}
		if st == state.Open {
			return reg
		}
		if time.Now().After(limit) {
			tb.Fatalf("state %v after %v, want open", st, callTimeout)
		}
	}
}

// setupGobreakerOpen returns a gobreaker tripped the same way.
func setupGobreakerOpen(tb testing.TB) *gobreaker.CircuitBreaker[any] {
	cb := gobreaker.NewCircuitBreaker[any](gobreaker.Settings{
		Name:        "down",
		Timeout:     time.Hour,
		ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= 1 },
	})
	if _, err := cb.Execute(func() (any, error) { return nil, errBoom }); !errors.Is(err, errBoom) {
		tb.Fatalf("tripping call: got %v, want %v", err, errBoom)
	}
	if st := cb.State(); st != gobreaker.StateOpen {
		tb.Fatalf("gobreaker state %v, want open", st)
	}
	return cb
}

// BenchmarkTripwireOpen: Call on an open breaker. Target: at most 0.5x
// BenchmarkGobreakerOpen, with 0 allocs/op. Both check the error with
// errors.Is, as a caller would.
func BenchmarkTripwireOpen(b *testing.B) {
	reg := setupOpen(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := reg.Call(ctx, "down", msg); !errors.Is(err, tripwire.ErrOpen) {
			b.Fatalf("got %v, want ErrOpen", err)
		}
	}
}

// BenchmarkGobreakerOpen: gobreaker's Execute while open (the peer).
func BenchmarkGobreakerOpen(b *testing.B) {
	cb := setupGobreakerOpen(b)
	called := false
	req := func() (any, error) { called = true; return msg, nil }
	for b.Loop() {
		if _, err := cb.Execute(req); !errors.Is(err, gobreaker.ErrOpenState) {
			b.Fatalf("got %v, want ErrOpenState", err)
		}
	}
	if called {
		b.Fatal("gobreaker called the request while open")
	}
}

// BenchmarkTripwireOpenFlood: 64 goroutines calling one open key at once
// (each rejection is counted in the key's statistics).
func BenchmarkTripwireOpenFlood(b *testing.B) {
	reg := setupOpen(b)
	ctx := context.Background()
	b.SetParallelism(32) // 64 goroutines on the 2-core machine
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := reg.Call(ctx, "down", msg); !errors.Is(err, tripwire.ErrOpen) {
				b.Errorf("got %v, want ErrOpen", err)
				return
			}
		}
	})
}

// BenchmarkGobreakerOpenFlood: the same flood on an open gobreaker.
func BenchmarkGobreakerOpenFlood(b *testing.B) {
	cb := setupGobreakerOpen(b)
	req := func() (any, error) { return msg, nil }
	b.SetParallelism(32)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := cb.Execute(req); !errors.Is(err, gobreaker.ErrOpenState) {
				b.Errorf("got %v, want ErrOpenState", err)
				return
			}
		}
	})
}
