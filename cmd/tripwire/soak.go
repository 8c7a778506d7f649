package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tripwire-go/tripwire/internal/soak"
)

func init() {
	register(command{name: "soak", order: 20, run: soakCmd,
		summary: "run the load-and-chaos test; report its invariants; exit 1 if one is violated"})
}

// soakCmd runs one soak (internal/soak) with the flags' config, prints a
// progress line each second and the report, and exits 0 if every invariant
// held, 1 if one did not (or the run could not start), 2 on bad flags.
func soakCmd(args []string, stdout, stderr io.Writer) int {
	cfg, err := soakFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		printError(stderr, "soak", err)
		printHint(stderr, "soak")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	fmt.Fprintln(stdout, describeSoak(cfg))
	var width func() int
	if isTerminal(stdout) {
		width = func() int { cols, _, _ := terminalSize(stdout); return cols }
	}
	line := newSoakProgress(stdout, width, cfg.Duration)
	cfg.Progress = line.show
	cfg.ProgressEvery = time.Second
	rep, err := soak.Run(ctx, cfg)
	line.end()
	if err != nil {
		printError(stderr, "soak", err)
		return 1
	}
	return printSoakReport(stdout, cfg, rep)
}

// describeSoak is the line that says what the run will do.
func describeSoak(cfg soak.Config) string {
	actors := "no actor target"
	if cfg.ActorEvery > 0 {
		actors = fmt.Sprintf("every %s an actor", soakOrdinal(cfg.ActorEvery))
	}
	kill := ""
	if cfg.KillTargets {
		kill = ", two targets die for the middle third"
	}
	return fmt.Sprintf("soak: %d callers + %d askers on %d keys (%s) for %v, think %v; fail %g%%, hang %g%%, %s, %s, %s%s; seed %d",
		cfg.Callers, cfg.Askers, cfg.Keys, actors, cfg.Duration, cfg.Think, 100*cfg.FailRate, 100*cfg.HangRate,
		soakEvery("crash", cfg.CrashEvery), soakEvery("panic", cfg.PanicEvery), soakEvery("burst", cfg.BurstEvery), kill, cfg.Seed)
}

// soakEvery says how often something happens: "crash every 5ms", or "no crash".
func soakEvery(what string, d time.Duration) string {
	if d == 0 {
		return "no " + what
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
