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

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/soak"
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
