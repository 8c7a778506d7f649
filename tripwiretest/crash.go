package tripwiretest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/hook"
)

// CrashReport is what a CrashEvery did.
type CrashReport struct {
	Crashes int            // breakers crashed (Crash succeeded)
	Errors  int            // Crash failures: key gone, registry shut down, ...
	ByKey   map[string]int // crashes per key
	Err     error          // wraps ErrInvalid if CrashEvery started nothing
}

type crashConfig struct {
	rng  *rand.Rand
	keys []string
}

// CrashEvery crashes the breaker of a random registered key of reg (see
// Crash) every period, until stop is called; OnlyKeys narrows the
// choice and Seed makes it reproducible. Each crash waits until the key's
// new breaker serves, so crashes never overlap; a period that passes during
// one is skipped. stop waits for the crashing goroutine to end and returns
// what it did; calling it again returns the same report. With a nil
// registry or a period that is not positive, nothing starts and the report
// has Err set.
func CrashEvery(reg *tripwire.Registry, every time.Duration, opts ...CrashOption) (stop func() CrashReport) {
	var cfg crashConfig
	for _, o := range opts {
		if o != nil {
			o.applyCrash(&cfg)
		}
	}
	var err error
	switch {
	case reg == nil:
		err = fmt.Errorf("%w: CrashEvery: nil registry", ErrInvalid)
	case every <= 0:
		err = fmt.Errorf("%w: CrashEvery(%v): period not positive", ErrInvalid, every)
	}
	if err != nil {
		return func() CrashReport { return CrashReport{ByKey: map[string]int{}, Err: err} }
	}
	if cfg.rng == nil {
		cfg.rng = newRand(rand.Uint64())
	}
	quit := make(chan struct{})
	done := make(chan CrashReport, 1)
	go crashLoop(reg, every, cfg, quit, done)
	var once sync.Once
	var report CrashReport
	return func() CrashReport {
		once.Do(func() {
			close(quit)
			report = <-done
		})
		return report
	}
}

func crashLoop(reg *tripwire.Registry, every time.Duration, cfg crashConfig, quit <-chan struct{}, done chan<- CrashReport) {
	rep := CrashReport{ByKey: map[string]int{}}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-quit:
			done <- rep
			return
		case <-tick.C:
		}
		select {
		case <-quit: // stop won the race with the tick
			done <- rep
			return
		default:
		}
		keys := cfg.keys
		if keys == nil {
			keys = reg.Keys()
		}
		if len(keys) == 0 {
			continue
		}
		key := keys[cfg.rng.IntN(len(keys))]
		if err := Crash(context.Background(), reg, key); err != nil {
			rep.Errors++
			continue
		}
		rep.Crashes++
		rep.ByKey[key]++
	}
}

// Crash makes key's breaker in reg panic, for resilience tests, and returns
// once a fresh breaker serves the key: closed, with zero failures. The
// calls the crashed breaker had in flight carry over to it: they get their
// targets' answers, which no longer count. It waits until ctx ends (at
// most 5 s if ctx has no deadline: then tripwire.ErrTimeout), and returns
// what Registry.Snapshot would for a bad key or registry.
func Crash(ctx context.Context, reg *tripwire.Registry, key string) error {
	if reg == nil {
		return fmt.Errorf("%w: Crash: nil registry", tripwire.ErrInvalidOption)
	}
	return hook.Crash(ctx, reg, key)
}
