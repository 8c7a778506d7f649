package soak

import (
	"errors"
	"slices"
	"time"

	"github.com/tripwire-go/tripwire"
)

// Live is a view of a run in progress, for a dashboard: Config.Watch gets
// it. Its methods are safe for concurrent use with the run. Once Run has
// returned, the registry is shut down (its methods return
// tripwire.ErrShutdown) and Stats keeps the last figures.
type Live struct{ h *harness }

// KeyStats is what the run's callers got from one key so far.
type KeyStats struct {
	Key      string
	Answers  Counts        // by outcome
	P50, P99 time.Duration // of the key's recent answers other than open and canceled
	// TargetDown: the key's target is dead now (Config.KillTargets kills
	// two for the middle third of the run).
	TargetDown  bool
	TargetCalls int64 // calls that reached the target
}

// Registry is the run's registry.
func (l *Live) Registry() *tripwire.Registry { return l.h.reg }

// Keys returns the run's keys, in order.
func (l *Live) Keys() []string { return slices.Clone(l.h.keys) }

// Stats returns every key's stats, in key order.
func (l *Live) Stats() []KeyStats {
	lv := l.h.live
	out := make([]KeyStats, len(l.h.keys))
	for i, key := range l.h.keys {
		var p50, p99 time.Duration
		if lv.latency != nil { // a Live exists only in a watched run, but be safe
			p50, p99 = lv.latency[i].quantiles()
		}
		out[i] = KeyStats{Key: key, Answers: lv.perKey[i].load(), P50: p50, P99: p99,
			TargetDown: lv.down[i].Load(), TargetCalls: l.h.scripts[i].Counts().Calls}
	}
	return out
}

// Crash crashes key's breaker, as Registry.Crash does, and counts the crash
// with the run's own (Report.Crash), so the report's check that every crash
// restarted its breaker exactly once still holds; a crash made straight
// through the registry would break it. Once the load is over (the callers
// stopped) it crashes nothing and returns ErrRunOver. Otherwise its errors
// are Registry.Crash's: tripwire.ErrInvalidKey, tripwire.ErrUnknownKey,
// tripwire.ErrShutdown, ...
func (l *Live) Crash(key string) error {
	w := &l.h.watcher
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.over {
		return ErrRunOver
	}
	err := l.h.reg.Crash(key)
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
