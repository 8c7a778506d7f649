package load

import "testing"

// TestLoad: many callers on many keys, with faults in every target and
// breakers crashing every few milliseconds.
func TestLoad(t *testing.T) {
	cfg := config{
		callers:    *flagCallers,
		askers:     max(1, *flagCallers/16),
		keys:       *flagKeys,
		actorEvery: 8,
		duration:   *flagDuration,
		crashEvery: *flagCrash,
		mustSee:    []outcome{okAnswer, injected, down, open, panicked, restarted, canceled},
	}
	if cfg.keys >= len(latencies) {
		cfg.mustSee = append(cfg.mustSee, timeout) // a 40 ms key times out 30 ms calls
	}
	if cfg.keys >= cfg.actorEvery {
		cfg.mustSee = append(cfg.mustSee, targetDown) // an actor target dies for a while
	}
	// Given a registry of function and actor targets that fail 10% of calls,
	// hang 1%, are slow, panic now and then, and die for a while
	h := newHarness(t, cfg)
	// When callers call for the whole run while breakers are crashed at random
	rep := h.run()
	// Then every call got exactly one answer in time, the tallies agree, the
	// workers followed the load, and nothing leaked
	check(t, "load", cfg, rep)
}

// TestHotKey: every caller on one key, which keeps crashing.
func TestHotKey(t *testing.T) {
	cfg := config{
		callers:    *flagHot,
		askers:     max(1, *flagHot/16),
		keys:       1,
		duration:   *flagHotDur,
		crashEvery: *flagCrash,
		// no timeout: a breaker crashing every few ms answers long calls first
		mustSee: []outcome{okAnswer, injected, down, open, restarted},
	}
	// Given one function target with the same faults as TestLoad
	h := newHarness(t, cfg)
	// When all callers call it while its breaker is crashed at random
	rep := h.run()
	// Then the same invariants hold
	check(t, "hot key", cfg, rep)
}
