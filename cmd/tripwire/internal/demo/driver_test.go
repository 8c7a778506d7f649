package demo

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire/internal/node"
	"github.com/tripwire-go/tripwire/internal/system"
	"github.com/tripwire-go/tripwire/state"

	"github.com/tripwire-go/tripwire"
)

// runDemo runs cfg for d in fake time and returns the transitions seen and
// the rows at the end.
func runDemo(t *testing.T, cfg Config, d time.Duration) (trans []state.Transition, rows []Row) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		sys := system.New(nil)
		defer sys.Shutdown()
		reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
		if err != nil {
			t.Fatal(err)
		}
		defer reg.Shutdown(context.Background())
		reg.Subscribe(func(tr state.Transition) { trans = append(trans, tr) })
		drv, err := New(reg, sys, cfg)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		drv.Run(ctx)
		synctest.Wait()
		rows = drv.Rows()
	})
	return trans, rows
}

func TestDownUpOpensAndCloses(t *testing.T) {
	// Given one key whose dependency is down from 1.5 s to 4.5 s
	cfg := DefaultConfig()
	cfg.Keys = 1
	// When callers call it for 8 s
	trans, rows := runDemo(t, cfg, 8*time.Second)
	// Then its breaker opened while it was down and closed after
	if len(trans) < 2 || trans[0].To != state.Open || trans[len(trans)-1].To != state.Closed {
		t.Fatalf("transitions %+v", trans)
	}
	r := rows[0]
	if r.State != state.Closed || r.OK == 0 || r.Rejected == 0 || r.Failed == 0 || r.Timeouts == 0 {
		t.Fatalf("row %+v", r)
	}
}

func TestDiesOpensOnTargetDown(t *testing.T) {
	// Given one key in front of an actor that dies at 1.5 s and is back at 4.5 s
	cfg := DefaultConfig()
	cfg.Keys, cfg.Pattern = 1, Dies
	// When callers call it for 8 s
	trans, rows := runDemo(t, cfg, 8*time.Second)
	// Then the breaker opened because the target died, and closed again
	if len(trans) < 2 || trans[0].Reason != state.ReasonTargetDown || trans[len(trans)-1].To != state.Closed {
		t.Fatalf("transitions %+v", trans)
	}
	if rows[0].OK == 0 || rows[0].Rejected == 0 {
		t.Fatalf("row %+v", rows[0])
	}
}

func TestSlowTimesOut(t *testing.T) {
	// Given one key whose dependency is slower than the call timeout from 1.5 s to 4.5 s
	cfg := DefaultConfig()
	cfg.Keys, cfg.Pattern = 1, Slow
	// When callers call it for 8 s
	trans, rows := runDemo(t, cfg, 8*time.Second)
	// Then its calls timed out, which opened the breaker; it closed after
	if len(trans) < 2 || trans[0].Reason != state.ReasonThreshold || trans[len(trans)-1].To != state.Closed {
		t.Fatalf("transitions %+v", trans)
	}
	if r := rows[0]; r.Timeouts < 3 || r.Failed != 0 {
		t.Fatalf("row %+v", r)
	}
}

func TestSlowUnderSlowCall(t *testing.T) {
	// Given a Slow dependency and a SlowCall below the call timeout
	cfg := DefaultConfig()
	cfg.Keys, cfg.Pattern = 1, Slow
	cfg.Settings.SlowCall = 100 * time.Millisecond
	// When callers call it for 8 s
	trans, rows := runDemo(t, cfg, 8*time.Second)
	// Then no call timed out, yet the slow successes opened the breaker
	if len(trans) < 2 || trans[0].To != state.Open || trans[len(trans)-1].To != state.Closed {
		t.Fatalf("transitions %+v", trans)
	}
	if r := rows[0]; r.Timeouts != 0 || r.Failed != 0 || r.Rejected == 0 {
		t.Fatalf("row %+v", r)
	}
}

func TestFlakyFailsAtRandom(t *testing.T) {
	// Given a dependency that fails half its calls, and a breaker that never opens
	cfg := DefaultConfig()
	cfg.Keys, cfg.Pattern, cfg.FailRate = 2, Flaky, 0.5
	cfg.Settings.Threshold = 1000
	// When callers call it for 2 s
	trans, rows := runDemo(t, cfg, 2*time.Second)
	// Then about half the calls failed, on each key
	if len(trans) != 0 {
		t.Fatalf("transitions %+v", trans)
	}
	for _, r := range rows {
		if share := float64(r.Failed) / float64(r.Calls); r.Calls < 100 || share < 0.4 || share > 0.6 {
			t.Errorf("%s: %d of %d calls failed", r.Key, r.Failed, r.Calls)
		}
	}
}

func TestDiesCycles(t *testing.T) {
	// Given an actor that dies from 0.5 s to 1.5 s of every 3 s
	cfg := DefaultConfig()
	cfg.Keys, cfg.Pattern = 1, Dies
	cfg.DownAt, cfg.UpAt, cfg.Cycle = 500*time.Millisecond, 1500*time.Millisecond, 3*time.Second
	// When callers call it for 8 s
	trans, rows := runDemo(t, cfg, 8*time.Second)
	// Then the breaker saw it die in each of the three cycles, and come back
	var died []time.Duration
	for _, tr := range trans {
		if tr.Reason == state.ReasonTargetDown && tr.From == state.Closed {
			died = append(died, tr.At.Sub(trans[0].At))
		}
	}
	if len(died) != 3 || died[1] != 3*time.Second || died[2] != 6*time.Second {
		t.Fatalf("target_down from closed at %v; transitions %+v", died, trans)
	}
	if rows[0].State != state.Closed || rows[0].DependencyHits != rows[0].OK {
		t.Fatalf("row %+v", rows[0])
	}
}

func TestRunEndWithdrawsCalls(t *testing.T) {
	// Given a dependency so slow that every call is still out when the run ends
	cfg := DefaultConfig()
	cfg.Keys, cfg.Pattern, cfg.DownAt, cfg.UpAt = 1, Slow, 0, time.Hour
	cfg.Settings.CallTimeout = 2 * time.Second
	// When the run's context reaches its deadline before the calls' own
	// (ten runs: were the calls to take that deadline as theirs, their
	// timeout and the run's end would race at one instant, either way)
	for range 10 {
		_, rows := runDemo(t, cfg, time.Second)
		// Then those calls were withdrawn, not counted as timeouts
		if r := rows[0]; r.Calls != 0 {
			t.Fatalf("row %+v", r)
		}
	}
}

func TestNewRejects(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sys := system.New(nil)
		defer sys.Shutdown()
		reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
		if err != nil {
			t.Fatal(err)
		}
		defer reg.Shutdown(context.Background())

		// Given no registry, or an invalid config, or invalid settings
		bad := DefaultConfig()
		bad.Keys = 0
		invalid := DefaultConfig()
		invalid.Settings.Threshold = -1
		for _, c := range []struct {
			reg  *tripwire.Registry
			cfg  Config
			want error
		}{
			{nil, DefaultConfig(), ErrNilRegistry},
			{reg, bad, ErrInvalidConfig},
			{reg, invalid, tripwire.ErrInvalidSettings},
		} {
			// When New is called; Then it fails with the sentinel and registers nothing
			if _, err := New(c.reg, sys, c.cfg); !errors.Is(err, c.want) {
				t.Errorf("New = %v, want %v", err, c.want)
			}
			if keys := reg.Keys(); len(keys) != 0 {
				t.Errorf("keys left: %v", keys)
			}
		}

		// Given a registry that already has the second key
		if err := reg.Register(context.Background(), KeyName(1), tripwire.Func(func(context.Context, any) (any, error) { return nil, nil }), tripwire.Settings{}); err != nil {
			t.Fatal(err)
		}
		cfg := DefaultConfig()
		cfg.Pattern = Dies
		// When New registers its keys
		_, err = New(reg, sys, cfg)
		// Then it fails on the second, and removes the first key and its actor again
		if !errors.Is(err, tripwire.ErrDuplicateKey) {
			t.Fatalf("New = %v", err)
		}
		if keys := reg.Keys(); len(keys) != 1 || keys[0] != KeyName(1) {
			t.Fatalf("keys %v", keys)
		}
		if _, err := sys.Root.SpawnNamed(node.EchoProps(0, nil), KeyName(0)); err != nil {
			t.Fatalf("the first key's actor is still there: %v", err)
		}
		time.Sleep(time.Minute) // the dead-letter throttle's ticker
		synctest.Wait()
	})
}
