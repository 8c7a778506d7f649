package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// flagGroups orders the flags in the help text. Every flag the demo defines
// is in exactly one group (a test checks it).
var flagGroups = []struct {
	title string
	names []string
}{
	{"The run", []string{"duration", "keys", "callers", "interval", "crash-at", "live"}},
	{"The built-in dependency", []string{"pattern", "latency", "fail-rate", "down-at", "up-at", "cycle", "stagger", "seed"}},
	{"Another process's dependency (tripwire node)", []string{"remote", "listen"}},
	{"The breakers' settings (tripwire.Settings)", []string{"threshold", "open-timeout", "call-timeout",
		"window", "failure-rate", "min-calls", "slow-call", "backoff", "backoff-max", "jitter",
		"probes", "max-in-flight", "ignore-target-down"}},
}

// flagTypes names the value of the flags whose type the flag package
// cannot name.
var flagTypes = map[string]string{"pattern": "name", "remote": "host:port", "listen": "host:port", "window": "N|period", "live": "auto|always|never"}

// demoHelp explains the demo and every flag of fs, group by group.
func demoHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage: tripwire demo [flags]

Drives callers through one circuit breaker per key, in front of a built-in
dependency that misbehaves on a schedule, and shows what each breaker does:
on a terminal a table redrawn in place, otherwise one line per transition
and a status line per key every second. At the end, a summary per key.
With no flags: 3 keys whose dependency goes down for 3 s, 8 s in all.

`)
	for _, g := range flagGroups {
		fmt.Fprintf(w, "%s:\n", g.title)
		for _, name := range g.names {
			f := fs.Lookup(name)
			typ, usage := flag.UnquoteUsage(f)
			if t, ok := flagTypes[name]; ok {
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
	fmt.Fprint(w, `Examples:
  tripwire demo -pattern dies -keys 5 -stagger 1s -duration 12s
  tripwire demo -pattern flaky -fail-rate 0.2 -window 20 -failure-rate 0.3
  tripwire demo -pattern down-up -cycle 6s -backoff 2 -backoff-max 4s -duration 20s
  tripwire demo -pattern slow -slow-call 100ms -probes 3 -live never
  tripwire demo -remote 127.0.0.1:7070 -duration 60s   (with tripwire node -listen 127.0.0.1:7070)
`)
}
