package soak

import (
	"context"
	"errors"
	"slices"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// Live is a view of a run in progress, for a dashboard: Config.Watch gets
// it. Its methods are safe for concurrent use with the run. Once Run has
// returned, the registry is shut down (its methods return
// tripwire.ErrShutdown). The figures of each key are the registry's own
// (Registry().Snapshot and Snapshots).
type Live struct{ h *harness }

// Registry is the run's registry.
func (l *Live) Registry() *tripwire.Registry { return l.h.reg }

// Keys returns the run's keys, in order.
func (l *Live) Keys() []string { return slices.Clone(l.h.keys) }

// Crash crashes key's breaker, as tripwiretest.Crash does, and counts the crash
// with the run's own (Report.Crash), so the report's check that every crash
// restarted its breaker exactly once still holds; a crash made straight
// through the registry would break it. Once the load is over (the callers
// stopped) it crashes nothing and returns ErrRunOver. Otherwise its errors
// are tripwiretest.Crash's: tripwire.ErrInvalidKey, tripwire.ErrUnknownKey,
// tripwire.ErrShutdown, ...
func (l *Live) Crash(key string) error {
	w := &l.h.watcher
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.over {
		return ErrRunOver
	}
	err := tripwiretest.Crash(context.Background(), l.h.reg, key)
	switch {
	case err == nil:
		w.crashes.Crashes++
		if w.crashes.ByKey == nil {
			w.crashes.ByKey = map[string]int{}
		}
		w.crashes.ByKey[key]++
	case errors.Is(err, tripwire.ErrInvalidKey), errors.Is(err, tripwire.ErrUnknownKey):
		// no breaker was touched
	default:
		w.crashes.Errors++ // it may have crashed, as CrashEvery counts it
	}
	return err
}
