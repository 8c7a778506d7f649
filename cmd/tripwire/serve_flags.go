package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/tripwire-go/tripwire"
	demopkg "github.com/tripwire-go/tripwire/internal/demo"
)

// serveOptions is one run of the serve command.
type serveOptions struct {
	addr     string
	duration time.Duration // 0: until SIGINT or SIGTERM
	cfg      demopkg.Config
	soak     bool // never true here: -soak runs serveSoakCmd (serve_soak.go)
}

// serveDefaults: four keys on a dependency that goes down for 4 s of every
// 10 s, each key 1.5 s after the one before, so the page keeps moving.
func serveDefaults() serveOptions {
	cfg := demopkg.DefaultConfig()
	cfg.Keys = 4
	cfg.DownAt, cfg.UpAt, cfg.Cycle, cfg.Stagger = 2*time.Second, 6*time.Second, 10*time.Second, 1500*time.Millisecond
	return serveOptions{addr: "127.0.0.1:8080", cfg: cfg}
}

// serveFlagGroups orders the flags in the help text; every flag is in
// exactly one group (a test checks it).
var serveFlagGroups = []struct {
	title string
	names []string
}{
	{"The server", []string{"addr", "duration"}},
	{"Instead of the demo", []string{"soak"}},
	{"The load", []string{"keys", "callers", "interval"}},
	{"The built-in dependency", []string{"pattern", "latency", "fail-rate", "down-at", "up-at", "cycle", "stagger", "seed"}},
	{"The breakers' settings (tripwire.Settings)", []string{"threshold", "open-timeout", "call-timeout",
		"window", "failure-rate", "min-calls", "slow-call", "backoff", "backoff-max", "jitter",
		"probes", "max-in-flight", "ignore-target-down"}},
}

// serveFlagTypes names the values the flag package cannot name.
var serveFlagTypes = map[string]string{"addr": "host:port", "pattern": "name", "window": "N|period"}

func serveFlagSet(o *serveOptions, w io.Writer) *flag.FlagSet {
	*o = serveDefaults()
	c, s := &o.cfg, &o.cfg.Settings
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(w)

	fs.StringVar(&o.addr, "addr", o.addr, "address the HTTP server listens on (port 0: any free port)")
	fs.DurationVar(&o.duration, "duration", o.duration, "stop after this long (0: run until Ctrl-C, SIGINT or SIGTERM)")
	fs.BoolVar(&o.soak, "soak", o.soak, "show the load-and-chaos run of tripwire soak instead of the demo (see With -soak below)")

	fs.IntVar(&c.Keys, "keys", c.Keys, fmt.Sprintf("keys, named dep-01, dep-02, ... (1..%d); each has a dependency of its own", demopkg.MaxKeys))
	fs.IntVar(&c.Callers, "callers", c.Callers, "concurrent callers per key (1..1000)")
	fs.DurationVar(&c.Interval, "interval", c.Interval, "a caller's pause between its calls")

	fs.Var(servePattern{&c.Pattern}, "pattern", "how the dependency misbehaves: "+demopkg.PatternNames()+
		"\n(flaky fails -fail-rate of calls at random; down-up fails, every fifth call hanging, from -down-at to -up-at;"+
		"\nslow is slower than -call-timeout then; dies is an actor that stops at -down-at and starts again at -up-at)")
	fs.DurationVar(&c.Latency, "latency", c.Latency, "the dependency's latency when healthy")
	fs.Float64Var(&c.FailRate, "fail-rate", c.FailRate, "flaky: the share of calls that fail, 0..1")
	fs.DurationVar(&c.DownAt, "down-at", c.DownAt, "down-up, slow, dies: when the dependency goes bad, in each cycle")
	fs.DurationVar(&c.UpAt, "up-at", c.UpAt, "down-up, slow, dies: when it recovers, in each cycle")
	fs.DurationVar(&c.Cycle, "cycle", c.Cycle, "repeat the -down-at..-up-at window every cycle (0: once)")
	fs.DurationVar(&c.Stagger, "stagger", c.Stagger, "key i's window starts i × stagger later")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "flaky: seed of the random failures")

	fs.IntVar(&s.Threshold, "threshold", s.Threshold, "consecutive failures that open the circuit (0: the default, 5; not used with -window)")
	fs.DurationVar(&s.OpenTimeout, "open-timeout", s.OpenTimeout, "how long the circuit stays open before a probe (0: the default, 30s)")
	fs.DurationVar(&s.CallTimeout, "call-timeout", s.CallTimeout, "deadline of each call (0: the default, 5s)")
	fs.Var(serveWindow{&s.Window}, "window", "trip on a failure rate over the last N calls (-window 20) or a period (-window 5s) instead of -threshold")
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

// parseServeFlags parses args. -h prints the help to w and returns
// flag.ErrHelp; a command line serve cannot run prints why and a hint to w
// and returns the error.
func parseServeFlags(args []string, w io.Writer) (serveOptions, error) {
	var o serveOptions
	fs := serveFlagSet(&o, w)
	fs.Usage = func() {} // the flag package has printed the error; the hint follows
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		serveHelp(w, fs)
		return o, err
	}
	if err == nil {
		if err = o.check(fs); err != nil {
			fmt.Fprintf(w, "tripwire %v\n", err)
		}
	}
	if err != nil {
		fmt.Fprintln(w, "Run 'tripwire serve -h' for every flag.")
	}
	return o, err
}

// check reports what the flag package lets through but serve cannot run.
func (o *serveOptions) check(fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	w := o.cfg.Settings.Window
	if fs.NArg() > 0 {
		return fmt.Errorf("serve: unexpected argument %q", fs.Arg(0))
	}
	if err := checkServeAddr(o.addr); err != nil {
		return err
	}
	switch {
	case o.duration < 0:
		return fmt.Errorf("serve: -duration %v must not be negative", o.duration)
	case (set["failure-rate"] || set["min-calls"]) && w.Size == 0 && w.Period == 0:
		return errors.New("serve: -failure-rate and -min-calls need -window")
	}
	return o.cfg.Validate()
}

// checkServeAddr accepts host:port with a numeric port; the host may be
// empty (every interface).
func checkServeAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("serve: -addr %q: want host:port", addr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return fmt.Errorf("serve: -addr %q: port %q is not a number in 0..65535", addr, port)
	}
	return nil
}

func serveHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage: tripwire serve [flags]

Serves a live dashboard of circuit breakers over HTTP: callers call a
built-in dependency through one breaker per key, as in tripwire demo, and the
page shows each breaker's state, counts and latency, and a timeline of its
transitions; its buttons force a breaker open or closed, reset it or crash
it. With no flags: 4 keys whose dependency is down 4 s of every 10 s, on
http://127.0.0.1:8080/, until Ctrl-C. With -soak it shows the run of
tripwire soak instead (see With -soak below).

Endpoints:
  GET  /                                 the dashboard
  GET  /api/breakers                     every breaker as JSON
  GET  /api/breakers/{key}               one breaker
  POST /api/breakers/{key}/{action}      action: force-open, force-close, reset, crash
  GET  /api/transitions                  the last 200 transitions
  GET  /api/events                       server-sent events (breakers, history, transition, missed, end)
  GET  /metrics                          Prometheus metrics (OpenTelemetry exporter)

`)
	for _, g := range serveFlagGroups {
		fmt.Fprintf(w, "%s:\n", g.title)
		for _, name := range g.names {
			f := fs.Lookup(name)
			typ, usage := flag.UnquoteUsage(f)
			if t, ok := serveFlagTypes[name]; ok {
				typ = t
			}
			fmt.Fprintf(w, "  -%s %s\n", f.Name, typ)
			for _, line := range strings.Split(usage, "\n") {
				fmt.Fprintf(w, "      %s\n", line)
			}
			if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "0s" && f.DefValue != "false" {
				fmt.Fprintf(w, "      (default %s)\n", f.DefValue)
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, `With -soak:
  serve shows the run of tripwire soak instead of the demo: its callers and
  askers on its keys (k0000, k0001, ...), its faulty targets and its breaker
  crashes. Its flags apply, with their defaults (tripwire soak -h explains
  them):
    `+serveSoakFlagList+`
  and -addr does; the other flags above are the demo's and are refused. The
  server stops when the soak ends (its -duration, 10s unless set; Ctrl-C ends
  it early): a page keeps the final state. serve then prints the soak's report
  and exits as tripwire soak does: 0 every invariant held, 1 one was violated.

`)
	fmt.Fprint(w, `Examples:
  tripwire serve
  tripwire serve -addr :9000 -keys 8 -pattern dies -stagger 1s
  tripwire serve -pattern flaky -fail-rate 0.3 -window 20 -failure-rate 0.4
  tripwire serve -soak -duration 1m -callers 16 -keys 8
  curl -s localhost:8080/api/breakers
  curl -s -X POST localhost:8080/api/breakers/dep-01/crash
`)
}

// servePattern is the -pattern flag.
type servePattern struct{ p *demopkg.Pattern }

func (v servePattern) String() string {
	if v.p == nil {
		return ""
	}
	return string(*v.p)
}

func (v servePattern) Set(s string) error {
	p, err := demopkg.ParsePattern(s)
	if err == nil {
		*v.p = p
	}
	return err
}

// serveWindow is the -window flag: a count of calls, or a period.
type serveWindow struct{ w *tripwire.Window }

func (v serveWindow) String() string {
	switch {
	case v.w == nil:
		return ""
	case v.w.Size > 0:
		return strconv.Itoa(v.w.Size)
	case v.w.Period > 0:
		return v.w.Period.String()
	}
	return ""
}

func (v serveWindow) Set(s string) error {
	if n, err := strconv.Atoi(s); err == nil {
		if n <= 0 {
			return errors.New("want a positive number of calls")
		}
		v.w.Size, v.w.Period = n, 0
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return errors.New("want a number of calls (20) or a positive period (5s)")
	}
	v.w.Size, v.w.Period = 0, d
	return nil
}
