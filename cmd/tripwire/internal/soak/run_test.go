package soak

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// small is a short run of every kind of caller and target.
func small() Config {
	cfg := Defaults()
	cfg.Callers, cfg.Askers, cfg.Keys, cfg.ActorEvery = 8, 1, 4, 2
	cfg.Duration = 600 * time.Millisecond
	return cfg
}

func TestRunReportsProgressAndKeepsEveryInvariant(t *testing.T) {
	// Given a short run that reports progress every 50 ms (a dozen times:
	// a stall of the test that drops ticks still leaves three)
	cfg := small()
	var mu sync.Mutex
	var seen []Progress
	var returned, late atomic.Bool
	cfg.ProgressEvery = 50 * time.Millisecond
	cfg.Progress = func(p Progress) {
		late.Store(late.Load() || returned.Load())
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, p)
	}
	// When it runs
	rep, err := Run(context.Background(), cfg)
	returned.Store(true)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	// Then progress came while it ran, growing, and never after (a progress
	// goroutine outliving Run would also fail goleak)
	mu.Lock()
	got := append([]Progress(nil), seen...)
	mu.Unlock()
	if len(got) < 3 || late.Load() {
		t.Fatalf("%d progress reports during the run; one after it: %v", len(got), late.Load())
	}
	for i, p := range got {
		if p.Calls < p.Answers.Sum() || p.InFlight() != p.Calls-p.Answers.Sum() || p.Goroutines == 0 {
			t.Fatalf("progress %d: %+v", i, p)
		}
		if i > 0 && (p.Calls < got[i-1].Calls || p.Elapsed <= got[i-1].Elapsed) {
			t.Fatalf("progress went back: %+v after %+v", p, got[i-1])
		}
	}
	last := got[len(got)-1]
	if last.Calls == 0 || last.Calls > rep.Calls {
		t.Fatalf("last progress %d calls, report %d", last.Calls, rep.Calls)
	}
	// And the report shows a run that kept every invariant
	if v := rep.Violations(cfg); len(v) != 0 {
		t.Fatalf("violations: %q", v)
	}
	if rep.Interrupted || rep.Calls == 0 || rep.Restarts == 0 || len(rep.PerKey) != cfg.Keys {
		t.Fatalf("report %+v", rep)
	}
}

func TestRunEndsEarlyWhenItsContextIsDone(t *testing.T) {
	// Given a run of a minute whose context is cancelled after 200 ms
	cfg := small()
	cfg.Duration = time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	// When it runs
	rep, err := Run(ctx, cfg)
	// Then it stops the load, drains and reports as usual
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !rep.Interrupted || rep.Elapsed > 10*time.Second || rep.Calls == 0 {
		t.Fatalf("interrupted %v after %v with %d calls", rep.Interrupted, rep.Elapsed, rep.Calls)
	}
	if v := rep.Violations(cfg); len(v) != 0 {
		t.Fatalf("violations: %q", v)
	}
}

func TestRunWithoutChaosCrashesAndInjectsNothing(t *testing.T) {
	// Given a run with no fault at all
	cfg := small()
	cfg.FailRate, cfg.HangRate, cfg.CrashEvery, cfg.PanicEvery, cfg.BurstEvery = 0, 0, 0, 0, 0
	cfg.KillTargets = false
	cfg.Duration = 300 * time.Millisecond
	// When it runs
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	// Then no breaker restarted and no target misbehaved
	if rep.Restarts != 0 || rep.Crash.Crashes != 0 || rep.Scripts.Failures+rep.Scripts.Panics+rep.Scripts.Hangs+rep.Scripts.Downs != 0 {
		t.Fatalf("restarts %d, crashes %+v, targets %+v", rep.Restarts, rep.Crash, rep.Scripts)
	}
	if rep.Answers[Injected]+rep.Answers[Panicked]+rep.Answers[Restarted]+rep.Answers[Down] != 0 {
		t.Fatalf("answers %v", rep.Answers)
	}
	if v := rep.Violations(cfg); len(v) != 0 {
		t.Fatalf("violations: %q", v)
	}
}
