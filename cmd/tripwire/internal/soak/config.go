package soak

import (
	"fmt"
	"math"
	"time"

	"github.com/tripwire-go/tripwire"
)

// Config is one soak run. Defaults returns the size `make test` runs.
type Config struct {
	Callers    int           // goroutines calling Registry.Call in a loop (≥ 0)
	Askers     int           // actors calling Registry.Request, AskDepth requests in flight each (≥ 0; Callers+Askers ≥ 1)
	Keys       int           // registered keys (≥ 1)
	ActorEvery int           // every ActorEvery-th key is an actor target (0, or more than Keys: none, all function targets)
	Duration   time.Duration // how long callers call (> 0)
	Think      time.Duration // a caller's mean pause between calls (≥ 0)

	FailRate     float64       // share of the calls that do not hang each target fails with tripwiretest.ErrInjected (0..1; see Plan)
	HangRate     float64       // share of calls that hang, ignoring their context, until released, then succeed (0..1)
	ReleaseEvery time.Duration // hung calls are released this often (> 0)
	CrashEvery   time.Duration // period of breaker crashes (tripwiretest.CrashEvery) (≥ 0; 0: none)
	PanicEvery   time.Duration // a random key's target panics once this often (≥ 0; 0: never)
	BurstEvery   time.Duration // a random key fails BurstLen calls in a row this often (≥ 0; 0: never)
	KillTargets  bool          // the first function target and the first actor target, of those there are, die for the middle third of the run
	Seed         uint64        // seeds every random choice: faults, keys, crashes

	// MustSee are the outcomes the run must produce to have exercised the
	// system; one that never occurs is a violation.
	MustSee []Answer

	// Progress, if set, is called every ProgressEvery (0: a second) while
	// the load runs, from a goroutine of the run, never after Run returns.
	Progress      func(Progress)
	ProgressEvery time.Duration

	// Options are given to the run's tripwire.Start after its own (none
	// today): WithMeterProvider, say, for a dashboard's /metrics. Each must
	// be non-nil.
	Options []tripwire.Option

	// Watch, if set, is called once with a view of the run (see Live) when
	// its registry is started and every key registered, before the load
	// starts; the load starts when it returns. The stop function it returns,
	// if not nil, is called once the load is over and every call answered,
	// before the registry shuts down: whatever Watch started must be
	// stopped by the time stop returns, since the run then counts the
	// goroutines left.
	Watch func(*Live) (stop func())
}

// AskDepth is how many requests each asker keeps in flight.
const AskDepth = 4

// BurstLen is how many calls in a row a burst fails.
const BurstLen = 10

// Defaults returns the run `make test` makes: 64 callers and 4 askers on 16
// keys (every 8th an actor) for 3 s, 1% hangs, 10% failures of the other
// calls, a crash every 5 ms, and a panic, a burst and a release of hung
// calls every 50-100 ms.
func Defaults() Config {
	return Config{
		Callers:      64,
		Askers:       4,
		Keys:         16,
		ActorEvery:   8,
		Duration:     3 * time.Second,
		Think:        2 * time.Millisecond,
		FailRate:     0.10,
		HangRate:     0.01,
		ReleaseEvery: 50 * time.Millisecond,
		CrashEvery:   5 * time.Millisecond,
		PanicEvery:   50 * time.Millisecond,
		BurstEvery:   100 * time.Millisecond,
		KillTargets:  true,
	}
}

// Validate returns a *ConfigError, which wraps ErrInvalidConfig, for the
// first field out of range, or nil.
func (c Config) Validate() error {
	bad := func(field string, v any, want string) error {
		return &ConfigError{Field: field, Value: v, Want: want}
	}
	switch {
	case c.Callers < 0:
		return bad("Callers", c.Callers, "≥ 0")
	case c.Askers < 0:
		return bad("Askers", c.Askers, "≥ 0")
	case c.Callers+c.Askers < 1:
		return bad("Callers+Askers", c.Callers+c.Askers, "≥ 1")
	case c.Keys < 1:
		return bad("Keys", c.Keys, "≥ 1")
	case c.ActorEvery < 0:
		return bad("ActorEvery", c.ActorEvery, "≥ 0")
	case c.Duration <= 0:
		return bad("Duration", c.Duration, "> 0")
	case c.Think < 0:
		return bad("Think", c.Think, "≥ 0")
	case !isRate(c.FailRate):
		return bad("FailRate", c.FailRate, "0..1")
	case !isRate(c.HangRate):
		return bad("HangRate", c.HangRate, "0..1")
	case c.ReleaseEvery <= 0:
		return bad("ReleaseEvery", c.ReleaseEvery, "> 0")
	case c.CrashEvery < 0:
		return bad("CrashEvery", c.CrashEvery, "≥ 0")
	case c.PanicEvery < 0:
		return bad("PanicEvery", c.PanicEvery, "≥ 0")
	case c.BurstEvery < 0:
		return bad("BurstEvery", c.BurstEvery, "≥ 0")
	case c.ProgressEvery < 0:
		return bad("ProgressEvery", c.ProgressEvery, "≥ 0")
	}
	for i, o := range c.Options {
		if o == nil {
			return bad("Options", fmt.Sprintf("nil at %d", i), "non-nil")
		}
	}
	for _, o := range c.MustSee {
		if o < 0 || o >= NumAnswers {
			return bad("MustSee", o, "outcomes")
		}
	}
	return nil
}

func isRate(p float64) bool { return !math.IsNaN(p) && p >= 0 && p <= 1 }

// progressEvery is how often Progress is called.
func (c Config) progressEvery() time.Duration {
	if c.ProgressEvery == 0 {
		return time.Second
	}
	return c.ProgressEvery
}
