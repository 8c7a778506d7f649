package main

import (
	"flag"
	"fmt"
	"io"
)

// flagGroups orders the flags in the help text. Every flag the demo defines
// is in exactly one group (a test checks it).
var flagGroups = []flagGroup{
	{"The run", append([]string{"duration"}, append(loadFlagNames, "crash-at", "live")...)},
	{"The built-in dependency", dependencyFlagNames},
	{"Another process's dependency (tripwire node)", append([]string{"remote", "listen"}, remoteFlagNames...)},
	{"The breakers' settings (tripwire.Settings)", settingsFlagNames},
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
	printFlagGroups(w, fs, flagGroups, flagTypes)
	fmt.Fprint(w, `Examples:
  tripwire demo -pattern dies -keys 5 -stagger 1s -duration 12s
  tripwire demo -pattern flaky -fail-rate 0.2 -window 20 -failure-rate 0.3
  tripwire demo -pattern down-up -cycle 6s -backoff 2 -backoff-max 4s -duration 20s
  tripwire demo -pattern slow -slow-call 100ms -probes 3 -live never
  tripwire demo -remote 127.0.0.1:7070 -duration 60s   (with tripwire node -listen 127.0.0.1:7070)
`)
}
