package soak_test

import (
	"flag"
	"os"
	"strconv"
	"time"
)

// The knobs of the load tests. Each flag's default comes from its environment
// variable if set, else from the `make test` size; `make soak` passes the
// flags after -args.
var (
	flagCallers  = flag.Int("load.callers", envInt("LOAD_CALLERS", 64), "callers of TestLoad (env LOAD_CALLERS)")
	flagKeys     = flag.Int("load.keys", envInt("LOAD_KEYS", 16), "keys of TestLoad (env LOAD_KEYS)")
	flagDuration = flag.Duration("load.duration", envDuration("LOAD_DURATION", 3*time.Second), "how long TestLoad calls (env LOAD_DURATION)")
	flagHot      = flag.Int("load.hotcallers", envInt("LOAD_HOT_CALLERS", 128), "callers of TestHotKey, all on one key (env LOAD_HOT_CALLERS)")
	flagHotDur   = flag.Duration("load.hotduration", envDuration("LOAD_HOT_DURATION", 2*time.Second), "how long TestHotKey calls (env LOAD_HOT_DURATION)")
	flagThink    = flag.Duration("load.think", envDuration("LOAD_THINK", 2*time.Millisecond), "a caller's mean pause between calls (env LOAD_THINK)")
	flagCrash    = flag.Duration("load.crashevery", envDuration("LOAD_CRASH_EVERY", 5*time.Millisecond), "period of breaker crashes (env LOAD_CRASH_EVERY)")
)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func envDuration(name string, def time.Duration) time.Duration {
	if v, err := time.ParseDuration(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
