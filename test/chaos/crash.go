package chaos

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/tripwire-go/tripwire"
)

// CrashReport is what a CrashEvery did.
type CrashReport struct {
	Crashes int            // breakers crashed (reg.Crash succeeded)
	Errors  int            // reg.Crash failures: key gone, registry shut down, ...
	ByKey   map[string]int // crashes per key
	Err     error          // wraps ErrInvalid if CrashEvery started nothing
}

type crashConfig struct {
	rng  *rand.Rand
	keys []string
}

// CrashEvery crashes the breaker of a random registered key of reg (see
// Registry.Crash) every period, until stop is called; OnlyKeys narrows the
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
		if err := reg.Crash(key); err != nil {
			rep.Errors++
			continue
		}
		rep.Crashes++
		rep.ByKey[key]++
	}
}
