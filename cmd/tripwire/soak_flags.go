package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/soak"
)

// errSoakFlag is a flag value soak refuses; the message says which and why.
var errSoakFlag = errors.New("bad flag")

// soakFlagOf is the flag that sets each field of soak.Config.
var soakFlagOf = map[string]string{
	"Callers": "-callers", "Askers": "-askers", "Callers+Askers": "-callers + -askers",
	"Keys": "-keys", "ActorEvery": "-actor-every", "Duration": "-duration", "Think": "-think",
	"FailRate": "-fail-rate", "HangRate": "-hang-rate", "ReleaseEvery": "-release-every",
	"CrashEvery": "-crash-every", "PanicEvery": "-panic-every", "BurstEvery": "-burst-every",
	"MustSee": "-must-see",
}

const soakUsage = `Usage: tripwire soak [flags]

Runs Tripwire under load and chaos, as make soak does: callers call random
keys while every target fails, hangs, panics and dies on cue and breakers are
crashed at random. A progress line each second, then a report: calls, replies,
missing, duplicated, late, max latency over deadline, restarts, goroutines left,
and every violated invariant on a line of its own. Ctrl-C ends the load early
and still reports.

Exit status: 0 every invariant held, 1 one was violated, 2 bad flags.

Flags:
`

// soakFlags parses soak's flags into a validated soak.Config. -h prints
// the help to stdout and returns flag.ErrHelp; it prints nothing else.
func soakFlags(args []string, stdout io.Writer) (soak.Config, error) {
	cfg := soak.Defaults()
	cfg.Duration = 10 * time.Second
	var mustSee string
	fs := flag.NewFlagSet("soak", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.IntVar(&cfg.Callers, "callers", cfg.Callers, "goroutines calling Registry.Call in a loop")
	fs.IntVar(&cfg.Askers, "askers", 0, fmt.Sprintf("actors calling Registry.Request, %d requests in flight each (default: callers/16, at least 1)", soak.AskDepth))
	fs.IntVar(&cfg.Keys, "keys", cfg.Keys, "registered keys, each with a target of its own")
	fs.IntVar(&cfg.ActorEvery, "actor-every", cfg.ActorEvery, "every Nth key's target is an actor, the others functions (0, or more than -keys: no actor)")
	fs.DurationVar(&cfg.Duration, "duration", cfg.Duration, "how long the callers call")
	fs.DurationVar(&cfg.Think, "think", cfg.Think, "a caller's mean pause between calls (0: none; at least 1ms after ErrOpen)")
	fs.Float64Var(&cfg.FailRate, "fail-rate", cfg.FailRate, "share of the calls that do not hang each target fails with an injected error (0..1; with -hang-rate h, this × (1-h) of all calls)")
	fs.Float64Var(&cfg.HangRate, "hang-rate", cfg.HangRate, "share of calls each target hangs, ignoring the deadline, until released, to succeed then (0..1)")
	fs.DurationVar(&cfg.ReleaseEvery, "release-every", cfg.ReleaseEvery, "how often hung calls are released")
	fs.DurationVar(&cfg.CrashEvery, "crash-every", cfg.CrashEvery, "period of breaker crashes, each of a random key (0: none)")
	fs.DurationVar(&cfg.PanicEvery, "panic-every", cfg.PanicEvery, "a random key's target panics once this often (0: never)")
	fs.DurationVar(&cfg.BurstEvery, "burst-every", cfg.BurstEvery, fmt.Sprintf("a random key fails %d calls in a row this often (0: never)", soak.BurstLen))
	fs.BoolVar(&cfg.KillTargets, "kill-targets", cfg.KillTargets, "one function and one actor target die for the middle third of the run")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of every random choice (faults, keys, crashes)")
	fs.StringVar(&mustSee, "must-see", "", "comma-separated outcomes the run must produce, else it fails: "+soakOutcomeList())
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, soakUsage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
		}
		return cfg, err
	}
	if fs.NArg() != 0 {
		return cfg, fmt.Errorf("%w: unexpected argument %q (soak takes flags only)", errSoakFlag, fs.Arg(0))
	}
	if !soakFlagSet(fs, "askers") {
		cfg.Askers = max(1, cfg.Callers/16)
	}
	var err error
	if cfg.MustSee, err = parseSoakOutcomes(mustSee); err != nil {
		return cfg, err
	}
	var ce *soak.ConfigError
	if err := cfg.Validate(); errors.As(err, &ce) {
		return cfg, fmt.Errorf("%w %s=%v: want %s", errSoakFlag, soakFlagOf[ce.Field], ce.Value, ce.Want)
	} else if err != nil {
		return cfg, fmt.Errorf("%w: %v", errSoakFlag, err)
	}
	return cfg, nil
}

func soakFlagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// parseSoakOutcomes reads a comma-separated list of outcome names.
func parseSoakOutcomes(list string) ([]soak.Answer, error) {
	var out []soak.Answer
	for _, name := range strings.Split(list, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		o, err := soak.ParseAnswer(name)
		if err != nil {
			return nil, fmt.Errorf("%w -must-see: %q is not an outcome (%s)", errSoakFlag, name, soakOutcomeList())
		}
		out = append(out, o)
	}
	return out, nil
}

func soakOutcomeList() string {
	names := make([]string, soak.NumAnswers)
	for o := range soak.NumAnswers {
		names[o] = o.String()
	}
	return strings.Join(names, ", ")
}
