package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	demopkg "github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
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
var serveFlagGroups = []flagGroup{
	{"The server", []string{"addr", "duration"}},
	{"Instead of the demo", []string{"soak"}},
	{"The load", loadFlagNames},
	{"The built-in dependency", dependencyFlagNames},
	{"The breakers' settings (tripwire.Settings)", settingsFlagNames},
}

// serveFlagTypes names the values the flag package cannot name.
var serveFlagTypes = map[string]string{"addr": "host:port", "pattern": "name", "window": "N|period"}

func serveFlagSet(o *serveOptions, w io.Writer) *flag.FlagSet {
	*o = serveDefaults()
	c := &o.cfg
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(w)

	fs.StringVar(&o.addr, "addr", o.addr, "address the HTTP server listens on (port 0: any free port)")
	fs.DurationVar(&o.duration, "duration", o.duration, "stop after this long (0: run until Ctrl-C, SIGINT or SIGTERM)")
	fs.BoolVar(&o.soak, "soak", o.soak, "show the load-and-chaos run of tripwire soak instead of the demo (see With -soak below)")

	defineLoadFlags(fs, c)
	defineDependencyFlags(fs, c)
	defineSettingsFlags(fs, &o.cfg.Settings)
	return fs
}

// parseServeFlags parses args. -h prints the help to stdout and returns
// flag.ErrHelp; a command line serve cannot run prints why and a hint to
// stderr and returns the error.
func parseServeFlags(args []string, stdout, stderr io.Writer) (serveOptions, error) {
	var o serveOptions
	fs := serveFlagSet(&o, io.Discard)
	if err := parseFlags(fs, args, "serve", stdout, stderr, serveHelp); err != nil {
		return o, err
	}
	if err := o.check(fs); err != nil {
		printError(stderr, "serve", err)
		printHint(stderr, "serve")
		return o, err
	}
	return o, nil
}

// check reports what the flag package lets through but serve cannot run.
func (o *serveOptions) check(fs *flag.FlagSet) error {
	w := o.cfg.Settings.Window
	if fs.NArg() > 0 {
		return fmt.Errorf("serve: unexpected argument %q", fs.Arg(0))
	}
	if err := checkAddr("addr", o.addr); err != nil {
		return err
	}
	switch {
	case o.duration < 0:
		return fmt.Errorf("serve: -duration %v must not be negative", o.duration)
	case windowFlagsAlone(fs, w):
		return errors.New("serve: -failure-rate and -min-calls need -window")
	}
	return o.cfg.Validate()
}

func serveHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage: tripwire serve [flags]

Serves a live dashboard of circuit breakers over HTTP: callers call a
built-in dependency through one breaker per key, as in tripwire demo, and the
page (the public dashboard package's) shows the keys worst first — state
with its reason and time in state, request rate, error percent and latency
percentiles from each breaker's own statistics — and a timeline of every
transition, restarts included; its buttons force a breaker open or closed,
reset it, probe it or crash it. With no flags: 4 keys whose dependency is
down 4 s of every 10 s, on http://127.0.0.1:8080/, until Ctrl-C. With -soak
it shows the run of tripwire soak instead (see With -soak below).

Endpoints (docs/dashboard.md has them all):
  GET  /                                 the dashboard
  GET  /api/breakers                     the worst keys and a summary (?prefix= ?state= ?limit=)
  GET  /api/breakers/{key}               one key, with its breaker's snapshot
  POST /api/breakers/{key}/{action}      action: force-open, force-close, reset, probe-now, crash
  GET  /api/transitions                  the last 200 transitions
  GET  /api/events                       server-sent events of what changes (hello, rows, history, transitions, end)
  GET  /metrics                          Prometheus metrics (OpenTelemetry exporter)

`)
	printFlagGroups(w, fs, serveFlagGroups, serveFlagTypes)
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
