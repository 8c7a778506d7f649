package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tripwire-go/tripwire"
)

type demoConfig struct {
	duration, downAt, upAt, crashAt time.Duration
	callers                         int
	interval                        time.Duration
	settings                        tripwire.Settings
}

func init() {
	register(command{name: "demo", order: 10, run: demo,
		summary: "drive a built-in flaky dependency through a breaker; print transitions and a tally"})
}

func demoFlags(args []string, stderr io.Writer) (demoConfig, error) {
	var c demoConfig
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.DurationVar(&c.duration, "duration", 8*time.Second, "how long to drive calls")
	fs.DurationVar(&c.downAt, "down-at", 1500*time.Millisecond, "when the dependency goes down")
	fs.DurationVar(&c.upAt, "up-at", 4500*time.Millisecond, "when the dependency recovers")
	fs.DurationVar(&c.crashAt, "crash-at", 6500*time.Millisecond, "when to crash the breaker (0: never)")
	fs.IntVar(&c.callers, "callers", 4, "concurrent callers")
	fs.DurationVar(&c.interval, "interval", 20*time.Millisecond, "pause between one caller's calls")
	fs.IntVar(&c.settings.Threshold, "threshold", 3, "consecutive failures that open the circuit")
	fs.DurationVar(&c.settings.OpenTimeout, "open-timeout", time.Second, "how long the circuit stays open")
	fs.DurationVar(&c.settings.CallTimeout, "call-timeout", 200*time.Millisecond, "deadline of each call")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if c.callers < 1 || c.duration <= 0 || c.interval < 0 {
		return c, errors.New("demo: -callers and -duration must be positive, -interval not negative")
	}
	return c, nil
}

// tally counts outcomes by kind.
type tally struct{ ok, failed, timeout, rejected, restarted atomic.Int64 }

func (t *tally) add(err error) {
	switch {
	case err == nil:
		t.ok.Add(1)
	case errors.Is(err, tripwire.ErrOpen):
		t.rejected.Add(1)
	case errors.Is(err, tripwire.ErrTimeout):
		t.timeout.Add(1)
	case errors.Is(err, tripwire.ErrBreakerRestarted):
		t.restarted.Add(1)
	default:
		t.failed.Add(1)
	}
}

func (t *tally) String() string {
	return fmt.Sprintf("ok=%d failed=%d timeout=%d rejected=%d restarted=%d",
		t.ok.Load(), t.failed.Load(), t.timeout.Load(), t.rejected.Load(), t.restarted.Load())
}

func demo(args []string, stdout, stderr io.Writer) int {
	cfg, err := demoFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	reg, err := tripwire.Start(nil, tripwire.WithLogger(transitionLogger(stdout)))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer reg.Shutdown(context.Background())

	dep := &flaky{start: time.Now(), downAt: cfg.downAt, upAt: cfg.upAt, latency: 2 * time.Millisecond, hangEach: 5}
	const key = "weather"
	if err := reg.Register(key, tripwire.FuncTarget(dep.call), cfg.settings); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "demo: %d callers on %q for %v; dependency down from %v to %v; threshold %d, open %v, call timeout %v\n",
		cfg.callers, key, cfg.duration, cfg.downAt, cfg.upAt, cfg.settings.Threshold, cfg.settings.OpenTimeout, cfg.settings.CallTimeout)

	var t tally
	ctx, cancel := context.WithTimeout(context.Background(), cfg.duration)
	defer cancel()
	var wg sync.WaitGroup
	for i := 0; i < cfg.callers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				_, err := reg.Call(context.Background(), key, "forecast")
				t.add(err)
				select {
				case <-time.After(cfg.interval):
				case <-ctx.Done():
				}
			}
		}()
	}
	report(ctx, stdout, reg, key, &t, dep.start, cfg.crashAt)
	wg.Wait()

	snap, err := reg.Snapshot(key)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "done: %s; state=%s failures=%d restarts=%d; dependency called %d times\n",
		&t, snap.State, snap.Failures, snap.Restarts, dep.calls.Load())
	return 0
}

// report prints the tally once a second and crashes the breaker at crashAt.
func report(ctx context.Context, w io.Writer, reg *tripwire.Registry, key string, t *tally, start time.Time, crashAt time.Duration) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var crash <-chan time.Time
	if crashAt > 0 {
		timer := time.NewTimer(crashAt)
		defer timer.Stop()
		crash = timer.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-crash:
			fmt.Fprintf(w, "t=%4.1fs crashing the breaker (fault injection)\n", time.Since(start).Seconds())
			if err := reg.Crash(key); err != nil {
				fmt.Fprintln(w, "crash:", err)
			}
		case <-tick.C:
			st, _ := reg.State(key)
			fmt.Fprintf(w, "t=%4.1fs state=%-9s %s\n", time.Since(start).Seconds(), st, t)
		}
	}
}
