package soak_test

import (
	"context"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/soak"
)

// TestLoad: many callers on many keys, with faults in every target and
// breakers crashing every few milliseconds.
func TestLoad(t *testing.T) {
	cfg := sized(*flagCallers, *flagKeys, *flagDuration)
	cfg.ActorEvery = 8
	cfg.MustSee = []soak.Answer{soak.OK, soak.Injected, soak.Down, soak.Open, soak.Panicked, soak.Canceled}
	if cfg.Keys >= soak.SlowKeys {
		cfg.MustSee = append(cfg.MustSee, soak.Timeout) // a 40 ms key times out 30 ms calls
	}
	if cfg.Keys >= cfg.ActorEvery {
		cfg.MustSee = append(cfg.MustSee, soak.TargetDown) // an actor target dies for a while
	}
	// Given a registry of function and actor targets that fail 10% of calls,
	// hang 1%, are slow, panic now and then, and die for a while
	// When callers call for the whole run while breakers are crashed at random
	rep := run(t, cfg)
	// Then every call got exactly one answer in time, the tallies agree, the
	// workers followed the load, and nothing leaked
	check(t, "load", cfg, rep)
}

// TestHotKey: every caller on one key, which keeps crashing.
func TestHotKey(t *testing.T) {
	cfg := sized(*flagHot, 1, *flagHotDur)
	cfg.ActorEvery = 0
	// no timeout: a breaker crashing every few ms answers long calls first
	cfg.MustSee = []soak.Answer{soak.OK, soak.Injected, soak.Down, soak.Open}
	// Given one function target with the same faults as TestLoad
	// When all callers call it while its breaker is crashed at random
	rep := run(t, cfg)
	// Then the same invariants hold
	check(t, "hot key", cfg, rep)
}

// sized is the default run with the flags' think time and crash period, at
// a size: callers goroutine callers and one asker per 16 of them, on keys
// keys, for d.
func sized(callers, keys int, d time.Duration) soak.Config {
	cfg := soak.Defaults()
	cfg.Callers, cfg.Askers, cfg.Keys, cfg.Duration = callers, max(1, callers/16), keys, d
	cfg.Think, cfg.CrashEvery = *flagThink, *flagCrash
	return cfg
}

func run(t *testing.T, cfg soak.Config) soak.Report {
	t.Helper()
	rep, err := soak.Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("soak.Run: %v", err)
	}
	return rep
}
