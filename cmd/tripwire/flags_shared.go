package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
	"github.com/tripwire-go/tripwire/state"
)

// The flags demo and serve share: the load, the built-in dependency, and
// the breakers' settings.

// loadFlagNames, dependencyFlagNames and settingsFlagNames are the shared
// flags, in help order.
var (
	loadFlagNames       = []string{"keys", "callers", "interval"}
	dependencyFlagNames = []string{"pattern", "latency", "fail-rate", "down-at", "up-at", "cycle", "stagger", "seed"}
	settingsFlagNames   = []string{"threshold", "open-timeout", "call-timeout",
		"window", "failure-rate", "min-calls", "slow-call", "backoff", "backoff-max", "jitter",
		"probes", "max-in-flight", "ignore-target-down"}
)

// defineLoadFlags defines the callers' flags on fs, into c.
func defineLoadFlags(fs *flag.FlagSet, c *demo.Config) {
	fs.IntVar(&c.Keys, "keys", c.Keys, fmt.Sprintf("keys, named dep-01, dep-02, ... (1..%d); each has a dependency of its own", demo.MaxKeys))
	fs.IntVar(&c.Callers, "callers", c.Callers, "concurrent callers per key (1..1000)")
	fs.DurationVar(&c.Interval, "interval", c.Interval, "a caller's pause between its calls")
}

// defineDependencyFlags defines the built-in dependency's flags on fs, into c.
func defineDependencyFlags(fs *flag.FlagSet, c *demo.Config) {
	fs.Var(patternValue{&c.Pattern}, "pattern", "how the dependency misbehaves, one of:\n"+
		"  flaky    fails -fail-rate of calls at random, all the time\n"+
		"  down-up  fails from -down-at to -up-at, every fifth call hanging past its deadline\n"+
		"  slow     from -down-at to -up-at slower than -call-timeout (or than -slow-call, if set below it)\n"+
		"  dies     an actor, stopped at -down-at and started again at -up-at: the breaker sees it die")
	fs.DurationVar(&c.Latency, "latency", c.Latency, "the dependency's latency when healthy")
	fs.Float64Var(&c.FailRate, "fail-rate", c.FailRate, "flaky: the share of calls that fail, 0..1")
	fs.DurationVar(&c.DownAt, "down-at", c.DownAt, "down-up, slow, dies: when the dependency goes bad (in each -cycle)")
	fs.DurationVar(&c.UpAt, "up-at", c.UpAt, "down-up, slow, dies: when it recovers (in each -cycle)")
	fs.DurationVar(&c.Cycle, "cycle", c.Cycle, "repeat the -down-at..-up-at window every cycle (0: once)")
	fs.DurationVar(&c.Stagger, "stagger", c.Stagger, "key i's window starts i × stagger later")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "flaky: seed of the random failures")
}

// defineSettingsFlags defines a flag for each breaker setting on fs, into s.
func defineSettingsFlags(fs *flag.FlagSet, s *tripwire.Settings) {
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
}

// windowFlagsAlone reports -failure-rate or -min-calls given without
// -window, which they need.
func windowFlagsAlone(fs *flag.FlagSet, w state.Window) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "failure-rate" || f.Name == "min-calls" })
	return set && w.Size == 0 && w.Period == 0
}

// checkAddr accepts the value of flag -name if it is host:port with a
// numeric port; the host may be empty (every interface).
func checkAddr(name, addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-%s %q: want host:port", name, addr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return fmt.Errorf("-%s %q: port %q is not a number in 0..65535", name, addr, port)
	}
	return nil
}

// checkRemoteAddr is checkAddr for the address of protoactor's remote,
// which names the node by the host it listens on: a peer reaches it only
// there, so the host must be one (not empty, 0.0.0.0 or ::, which a peer
// cannot dial, and whose messages would go nowhere, unanswered).
func checkRemoteAddr(name, addr string) error {
	if err := checkAddr(name, addr); err != nil {
		return err
	}
	host, _, _ := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return fmt.Errorf("-%s %q: give the host peers dial (127.0.0.1, this machine's address): protoactor's remote names the node by it", name, addr)
	}
	return nil
}

// flagGroup is one titled group of flags in a command's help.
type flagGroup struct {
	title string
	names []string
}

// printFlagGroups explains every flag of fs, group by group; types names
// the values the flag package cannot name.
func printFlagGroups(w io.Writer, fs *flag.FlagSet, groups []flagGroup, types map[string]string) {
	for _, g := range groups {
		fmt.Fprintf(w, "%s:\n", g.title)
		for _, name := range g.names {
			f := fs.Lookup(name)
			typ, usage := flag.UnquoteUsage(f)
			if t, ok := types[name]; ok {
				typ = t
			}
			fmt.Fprintln(w, strings.TrimRight("  -"+f.Name+" "+typ, " "))
			for _, line := range strings.Split(usage, "\n") {
				fmt.Fprintf(w, "      %s\n", line)
			}
			if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "0s" && f.DefValue != "false" {
				fmt.Fprintf(w, "      (default %s)\n", f.DefValue)
			}
		}
		fmt.Fprintln(w)
	}
}
