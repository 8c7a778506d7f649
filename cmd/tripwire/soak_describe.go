package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/soak"
)

// describeSoak is the line that says what the run will do: what its
// config's Plan says, not what the flags alone would suggest. The rates
// combine (a call that hangs cannot fail), and a run of fewer keys than
// -actor-every has no actor target, nor one to kill.
func describeSoak(cfg soak.Config) string {
	plan, err := cfg.Plan()
	if err != nil {
		return "soak: " + err.Error() // Run refuses it too
	}
	kill := ""
	if len(plan.Victims) != 0 {
		kill = ", " + soakVictims(plan.Victims) + " for the middle third"
	}
	return fmt.Sprintf("soak: %d callers + %d askers on %s (%s) for %v, think %v; %s, %s, %s, %s%s; seed %d",
		cfg.Callers, cfg.Askers, soakCount(cfg.Keys, "key"), soakTargets(cfg, plan), cfg.Duration, cfg.Think, soakRates(cfg, plan),
		soakEvery("crash", cfg.CrashEvery, 0), soakEvery("panic", cfg.PanicEvery, cfg.Duration), soakEvery("burst", cfg.BurstEvery, cfg.Duration), kill, cfg.Seed)
}

// soakTargets says which keys' targets are actors: "2 actor targets: every
// 8th key", or "function targets, no actor: fewer keys than -actor-every 8".
func soakTargets(cfg soak.Config, plan soak.Plan) string {
	funcs, actors := "function targets", "actor targets"
	if cfg.Keys == 1 {
		funcs, actors = "a function target", "an actor target"
	}
	switch {
	case cfg.ActorEvery == 0:
		return funcs
	case plan.Actors == 0:
		return fmt.Sprintf("%s, no actor: fewer keys than -actor-every %d", funcs, cfg.ActorEvery)
	case plan.Actors == cfg.Keys:
		return actors
	}
	return fmt.Sprintf("%s: every %s", soakCount(plan.Actors, "actor target"), soakOrdinal(cfg.ActorEvery))
}

// soakRates says what share of calls hang and fail: a call that hangs is
// released to succeed, so with both rates set the share that fails is the
// fail rate of the calls that do not hang.
func soakRates(cfg soak.Config, plan soak.Plan) string {
	if cfg.FailRate == 0 || cfg.HangRate == 0 {
		return fmt.Sprintf("fail %s, hang %s", soakPercent(plan.FailShare), soakPercent(plan.HangShare))
	}
	return fmt.Sprintf("hang %s, fail %s of the calls that do not hang (%s of calls)",
		soakPercent(plan.HangShare), soakPercent(cfg.FailRate), soakPercent(plan.FailShare))
}

// soakVictims names the targets that die: "k0000 (a function target) and
// k0007 (an actor target) die".
func soakVictims(vs []soak.Victim) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		kind := "a function target"
		if v.Actor {
			kind = "an actor target"
		}
		names[i] = fmt.Sprintf("%s (%s)", v.Key, kind)
	}
	if len(vs) == 1 {
		return names[0] + " dies"
	}
	return strings.Join(names, " and ") + " die"
}

// soakPercent writes a share as a percentage of 4 significant digits at
// most: 0.21 is "21%", 0.099 "9.9%".
func soakPercent(p float64) string {
	return strconv.FormatFloat(100*p, 'g', 4, 64) + "%"
}

// soakCount counts things: "1 key", "16 keys".
func soakCount(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// soakEvery says how often something happens: "crash every 5ms", or "no
// crash". Something that first happens a period into a run of the given
// length (0: not so) does not happen if the period is longer: "no panic
// (-panic-every 1m is longer than the run)".
func soakEvery(what string, d, run time.Duration) string {
	switch {
	case d == 0:
		return "no " + what
	case run > 0 && d > run:
		return fmt.Sprintf("no %s (-%s-every %v is longer than the run)", what, what, d)
	}
	return fmt.Sprintf("%s every %v", what, d)
}

// soakOrdinal names every nth key: "key", "2nd key", "8th key".
func soakOrdinal(n int) string {
	suffix := "th"
	switch {
	case n == 1:
		return "key"
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s key", n, suffix)
}
