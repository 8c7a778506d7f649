package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
)

// demoOptions is one run of the demo command: the driver's config and what
// the command itself does around it.
type demoOptions struct {
	cfg      demo.Config
	duration time.Duration // how long the callers call
	crashAt  time.Duration // when to crash the first key's breaker; 0: never
	live     liveMode
	listen   string      // with -remote: where this process's own remote listens
	remote   remoteFlags // with -remote: how this process's remote runs
}

// demoFlagSet defines the demo's flags on a new flag set writing to w, with
// DefaultConfig's values as defaults, filling o.
func demoFlagSet(o *demoOptions, w io.Writer) *flag.FlagSet {
	*o = demoOptions{cfg: demo.DefaultConfig(), duration: 8 * time.Second, crashAt: 6500 * time.Millisecond, live: liveAuto, listen: "127.0.0.1:0"}
	c := &o.cfg
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(w)

	fs.DurationVar(&o.duration, "duration", o.duration, "how long the callers call; then a summary, and the demo exits")
	defineLoadFlags(fs, c)
	fs.DurationVar(&o.crashAt, "crash-at", o.crashAt, "crash dep-01's breaker at this time, to watch it restart closed (0: never)")
	fs.Var(&o.live, "live", "auto: a live table on a terminal, plain lines otherwise; always (into a pipe:\n"+
		"sized by $COLUMNS and $LINES, else 80×24); never")

	defineDependencyFlags(fs, c)

	fs.StringVar(&c.Remote, "remote", c.Remote, "host:port of a `tripwire node`: every key calls its dependency actor over\n"+
		"protoactor's remote instead of a built-in dependency (-pattern and its flags do not apply)")
	fs.StringVar(&o.listen, "listen", o.listen, "with -remote: host:port this process listens on for replies (port 0: chosen by the OS)")
	o.remote.define(fs)

	defineSettingsFlags(fs, &o.cfg.Settings)
	return fs
}

// parseDemoFlags parses args. -h prints the help to stdout and returns
// flag.ErrHelp; a command line the demo cannot run prints why and a hint to
// stderr and returns the error.
func parseDemoFlags(args []string, stdout, stderr io.Writer) (demoOptions, error) {
	var o demoOptions
	fs := demoFlagSet(&o, io.Discard)
	if err := parseFlags(fs, args, "demo", stdout, stderr, demoHelp); err != nil {
		return o, err
	}
	if err := o.check(fs); err != nil {
		printError(stderr, "demo", err)
		printHint(stderr, "demo")
		return o, err
	}
	return o, nil
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
	case windowFlagsAlone(fs, w):
		return errors.New("demo: -failure-rate and -min-calls need -window")
	case set["remote"] && set["pattern"]:
		return errors.New("demo: -remote and -pattern exclude each other: a remote dependency misbehaves when its node is stopped")
	case (set["listen"] || slices.ContainsFunc(remoteFlagNames, func(f string) bool { return set[f] })) && !set["remote"]:
		return errors.New("demo: -listen, -keepalive, -keepalive-timeout and -tls-* need -remote")
	case set["listen"]:
		if err := checkRemoteAddr("listen", o.listen); err != nil {
			return err
		}
	}
	if _, err := o.remote.options(nil); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if set["remote"] {
		o.cfg.Pattern = demo.Remote
	}
	return o.cfg.Validate()
}
