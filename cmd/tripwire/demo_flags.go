package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/tripwire-go/tripwire/internal/demo"
)

// demoOptions is one run of the demo command: the driver's config and what
// the command itself does around it.
type demoOptions struct {
	cfg      demo.Config
	duration time.Duration // how long the callers call
	crashAt  time.Duration // when to crash the first key's breaker; 0: never
	live     liveMode
	listen   string // with -remote: where this process's own remote listens
}

// demoFlagSet defines the demo's flags on a new flag set writing to w, with
// DefaultConfig's values as defaults, filling o.
func demoFlagSet(o *demoOptions, w io.Writer) *flag.FlagSet {
	*o = demoOptions{cfg: demo.DefaultConfig(), duration: 8 * time.Second, crashAt: 6500 * time.Millisecond, live: liveAuto, listen: "127.0.0.1:0"}
	c, s := &o.cfg, &o.cfg.Settings
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(w)

	fs.DurationVar(&o.duration, "duration", o.duration, "how long the callers call; then a summary, and the demo exits")
	fs.IntVar(&c.Keys, "keys", c.Keys, fmt.Sprintf("keys, named dep-01, dep-02, ... (1..%d); each has a dependency of its own", demo.MaxKeys))
	fs.IntVar(&c.Callers, "callers", c.Callers, "concurrent callers per key (1..1000)")
	fs.DurationVar(&c.Interval, "interval", c.Interval, "a caller's pause between its calls")
	fs.DurationVar(&o.crashAt, "crash-at", o.crashAt, "crash dep-01's breaker at this time, to watch it restart closed (0: never)")
	fs.Var(&o.live, "live", "auto: a live table on a terminal, plain lines otherwise; always; never")

	fs.Var(patternValue{&c.Pattern}, "pattern", "how the dependency misbehaves, one of:\n"+
		"  flaky    fails -fail-rate of calls at random, all the time\n"+
		"  down-up  fails from -down-at to -up-at, every fifth call hanging past its deadline\n"+
		"  slow     from -down-at to -up-at slower than -call-timeout (or than -slow-call, if set below it)\n"+
		"  dies     an actor, stopped at -down-at and started again at -up-at: the breaker sees it die")
	fs.DurationVar(&c.Latency, "latency", c.Latency, "the dependency's latency when healthy")
	fs.Float64Var(&c.FailRate, "fail-rate", c.FailRate, "flaky: the share of calls that fail, 0..1")
	fs.DurationVar(&c.DownAt, "down-at", c.DownAt, "down-up, slow, dies: when the dependency goes bad")
	fs.DurationVar(&c.UpAt, "up-at", c.UpAt, "down-up, slow, dies: when it recovers")
	fs.DurationVar(&c.Cycle, "cycle", c.Cycle, "repeat the -down-at..-up-at window every cycle (0: once)")
	fs.DurationVar(&c.Stagger, "stagger", c.Stagger, "key i's window starts i × stagger later")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "flaky: seed of the random failures")

	fs.StringVar(&c.Remote, "remote", c.Remote, "host:port of a `tripwire node`: every key calls its dependency actor over\n"+
		"protoactor's remote instead of a built-in dependency (-pattern and its flags do not apply)")
	fs.StringVar(&o.listen, "listen", o.listen, "with -remote: host:port this process listens on for replies (port 0: chosen by the OS)")

	fs.IntVar(&s.Threshold, "threshold", s.Threshold, "consecutive failures that open the circuit (0: the default, 5; not used with -window)")
	fs.DurationVar(&s.OpenTimeout, "open-timeout", s.OpenTimeout, "how long the circuit stays open before a probe (0: the default, 30s)")
	fs.DurationVar(&s.CallTimeout, "call-timeout", s.CallTimeout, "deadline of each call (0: the default, 5s)")
	fs.Var(windowValue{&s.Window}, "window", "trip on a failure rate over the last N calls (-window 20) or a period (-window 5s) instead of -threshold")
	fs.Float64Var(&s.Window.FailureRate, "failure-rate", s.Window.FailureRate, "with -window: the share of failures that opens the circuit, 0..1 (0: 0.5)")
	fs.IntVar(&s.Window.MinCalls, "min-calls", s.Window.MinCalls, "with -window: calls recorded before the rate counts (0: the window's size, or 10)")
	fs.DurationVar(&s.SlowCall, "slow-call", s.SlowCall, "a successful call slower than this counts as a failure (0: off)")
	fs.Float64Var(&s.Backoff.Multiplier, "backoff", s.Backoff.Multiplier, "multiply the open time by this for each re-open without a close (0 or >= 1)")
	fs.DurationVar(&s.Backoff.Max, "backoff-max", s.Backoff.Max, "cap of the open time (0: no cap)")
	fs.Float64Var(&s.Backoff.Jitter, "jitter", s.Backoff.Jitter, "spread each open time by ± this share of itself, 0..1")
	fs.IntVar(&s.HalfOpenProbes, "probes", s.HalfOpenProbes, "probes a half-open circuit lets through at once; all must succeed (0: 1)")
	fs.IntVar(&s.MaxInFlight, "max-in-flight", s.MaxInFlight, "calls in flight per key; one more is rejected with ErrOverloaded (0: no bound)")
	fs.BoolVar(&s.IgnoreTargetDown, "ignore-target-down", s.IgnoreTargetDown, "dies: do not watch the actor; see it die only through failed calls")
	return fs
}

// parseDemoFlags parses args. -h prints the help to w and returns
// flag.ErrHelp; a command line the demo cannot run prints why and a hint to
// w and returns the error.
func parseDemoFlags(args []string, w io.Writer) (demoOptions, error) {
	var o demoOptions
	fs := demoFlagSet(&o, w)
	fs.Usage = func() {} // the flag package has printed the error; the hint follows
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		demoHelp(w, fs)
		return o, err
	}
	if err == nil {
		if err = o.check(fs); err != nil {
			fmt.Fprintf(w, "tripwire %v\n", err)
		}
	}
	if err != nil {
		fmt.Fprintln(w, "Run 'tripwire demo -h' for every flag.")
	}
	return o, err
}

// check reports what the flag package lets through but the demo cannot run.
func (o *demoOptions) check(fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	w := o.cfg.Settings.Window
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("demo: unexpected argument %q", fs.Arg(0))
	case o.duration <= 0:
		return fmt.Errorf("demo: -duration %v must be positive", o.duration)
	case o.crashAt < 0:
		return fmt.Errorf("demo: -crash-at %v must not be negative", o.crashAt)
	case (set["failure-rate"] || set["min-calls"]) && w.Size == 0 && w.Period == 0:
		return errors.New("demo: -failure-rate and -min-calls need -window")
	case set["remote"] && set["pattern"]:
		return errors.New("demo: -remote and -pattern exclude each other: a remote dependency misbehaves when its node is stopped")
	case set["listen"] && !set["remote"]:
		return errors.New("demo: -listen needs -remote")
	}
	if set["remote"] {
		o.cfg.Pattern = demo.Remote
	}
	return o.cfg.Validate()
}
