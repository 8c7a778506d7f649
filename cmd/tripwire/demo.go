package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	remotenode "github.com/tripwire-go/tripwire/internal/node"
	"github.com/tripwire-go/tripwire/internal/system"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"

	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
	"github.com/tripwire-go/tripwire/remoting"
)

func init() {
	register(command{name: "demo", order: 10, run: runDemoCommand,
		summary: "drive breakers in front of a built-in misbehaving dependency; show what they do"})
}

// demoView shows the demo's progress: a live table or plain lines. Its
// methods may be called from several goroutines.
type demoView interface {
	every() time.Duration                     // how often status is called
	start(header []string)                    // once, first
	event(e demoEvent)                        // as it happens
	status(at time.Duration, rows []demo.Row) // every every()
	finish(at time.Duration, rows []demo.Row) // once, last
}

// exitInterrupted is the exit code of a demo stopped by Ctrl-C.
const exitInterrupted = 130

func runDemoCommand(args []string, stdout, stderr io.Writer) int {
	// Ctrl-C or SIGTERM ends the run early, and the summary still follows:
	// also with -live always into a pipe, whose reader (less, tee -i) may
	// outlive the signal and show the terminal what it is sent.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	resized := make(chan os.Signal, 1)
	notifyResize(resized)
	defer signal.Stop(resized)
	return demoCommand(ctx, args, stdout, stderr, screenOf(stdout, resized))
}

// demoCommand is the demo command until ctx ends: the live table, if it
// draws one, fits scr.
func demoCommand(ctx context.Context, args []string, stdout, stderr io.Writer, scr screen) int {
	o, err := parseDemoFlags(args, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	var view demoView = newLineView(stdout, o.cfg.Pattern)
	logger := warningLogger(stderr)
	if o.live.on(stdout) {
		live := newLiveView(stdout, scr, o.cfg.Pattern, o.cfg.Keys, o.cfg.Callers, o.duration)
		defer live.redrawOn(scr.resized)()
		view = live
		logger = zap.NewNop() // a line on the terminal would break the redraw
	}
	code := runDemo(ctx, o, view, logger, stderr)
	if code == 0 && ctx.Err() != nil {
		return exitInterrupted
	}
	return code
}

// runDemo runs the demo o until its duration ends or ctx does, showing it
// on view, and returns the exit code.
func runDemo(ctx context.Context, o demoOptions, view demoView, logger *zap.Logger, stderr io.Writer) int {
	sys := system.New(logger)
	defer sys.Shutdown()
	if o.cfg.Pattern == demo.Remote {
		// The remote is not shut down: the process ends with the demo, and
		// protoactor's graceful Remote.Shutdown writes a flag its connection
		// goroutines read without synchronisation (remote/endpoint_reader.go).
		opts, _ := o.remote.options(logger) // checked with the flags
		if _, err := remotenode.EnableRemote(sys, o.listen, opts...); err != nil {
			printError(stderr, "demo", fmt.Errorf("-listen: %s", trimPrefixes(err.Error())))
			return 2
		}
	}
	reg, err := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithLogger(logger))
	if err != nil {
		printError(stderr, "demo", err)
		return 1
	}
	defer reg.Shutdown(context.Background()) // on early returns; a second Shutdown does nothing
	if o.cfg.Pattern == demo.Remote {
		// The recommended set-up: probe as soon as the node is reachable again.
		stop, err := remoting.ProbeOnReconnect(reg, sys)
		if err != nil {
			printError(stderr, "demo", err)
			return 1
		}
		defer stop()
	}
	drv, err := demo.New(reg, sys, o.cfg)
	if err != nil {
		printError(stderr, "demo", err)
		if !errors.Is(err, tripwire.ErrInvalidSettings) && !errors.Is(err, demo.ErrInvalidConfig) {
			return 1
		}
		printHint(stderr, "demo")
		return 2
	}
	view.start(describeDemo(o))
	reg.Subscribe(func(t state.Transition) { view.event(transitionEvent(drv.Start(), t)) })

	run, cancel := context.WithDeadline(ctx, drv.Start().Add(o.duration))
	defer cancel()
	var callers sync.WaitGroup
	callers.Go(func() { drv.Run(run) })
	watch(run, o, drv, reg, view)
	callers.Wait()

	rows := drv.RunRows()
	// Shutdown delivers the transitions still on their way to view.event.
	shut, cancelShut := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancelShut()
	err = reg.Shutdown(shut)
	view.finish(time.Since(drv.Start()), rows)
	if err != nil {
		printError(stderr, "demo", fmt.Errorf("shutdown: %w", err))
		return 1
	}
	return 0
}

// watch shows the rows every view.every() and crashes the first key's
// breaker at o.crashAt, until ctx ends.
func watch(ctx context.Context, o demoOptions, drv *demo.Driver, reg *tripwire.Registry, view demoView) {
	tick := time.NewTicker(view.every())
	defer tick.Stop()
	var crash <-chan time.Time
	if o.crashAt > 0 {
		t := time.NewTimer(time.Until(drv.Start().Add(o.crashAt)))
		defer t.Stop()
		crash = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-crash:
			crashFirst(drv, reg, view)
		case <-tick.C:
			view.status(time.Since(drv.Start()), drv.Rows())
		}
	}
}

// crashFirst crashes the first key's breaker and tells view before and
// after: Crash returns once the supervisor has restarted it.
func crashFirst(drv *demo.Driver, reg *tripwire.Registry, view demoView) {
	key := drv.Keys()[0]
	say := func(detail string) { view.event(demoEvent{at: time.Since(drv.Start()), key: key, detail: detail}) }
	say("fault injection: the breaker panics")
	if err := tripwiretest.Crash(context.Background(), reg, key); err != nil {
		say("crash failed: " + err.Error())
		return
	}
	if snap, err := reg.Snapshot(context.Background(), key); err == nil {
		say(fmt.Sprintf("restarted by its supervisor: %s, %d failures, restart #%d", snap.State, snap.Failures, snap.Restarts))
	}
}
