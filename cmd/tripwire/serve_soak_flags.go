package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/soak"
)

// serveSoakOptions is one run of serve -soak.
type serveSoakOptions struct {
	addr string
	cfg  soak.Config // as tripwire soak's flags set it
}

// serveSoakFlagList names tripwire soak's flags, which apply with -soak (a
// test checks it against soak's own).
const serveSoakFlagList = "-callers, -askers, -keys, -actor-every, -duration, -think, -fail-rate, -hang-rate,\n" +
	"    -release-every, -crash-every, -panic-every, -burst-every, -kill-targets, -seed, -must-see"

// serveSoakShared are the flags that serve's demo and tripwire soak both
// have; with -soak they are the soak's (-callers in all, not per key;
// -duration of the load, after which serve stops). A test checks the list.
var serveSoakShared = map[string]bool{"callers": true, "duration": true, "fail-rate": true, "keys": true, "seed": true}

// serveWantsSoak reports whether args turn -soak on: the last -soak or
// -soak=BOOL before the flags end ("--") decides. A -soak=BOOL whose value
// is not a boolean does not: the demo's parser then says what is wrong.
func serveWantsSoak(args []string) bool {
	on := false
	for _, a := range args {
		if a == "--" {
			break
		}
		name, value, hasValue := serveFlagToken(a)
		if name != "soak" {
			continue
		}
		if !hasValue {
			on = true
		} else if b, err := strconv.ParseBool(value); err == nil {
			on = b
		}
	}
	return on
}

// serveFlagToken splits "-name", "--name", "-name=value" as the flag
// package reads them; name is "" if a is not a flag.
func serveFlagToken(a string) (name, value string, hasValue bool) {
	if len(a) < 2 || a[0] != '-' {
		return "", "", false
	}
	rest := strings.TrimPrefix(a[1:], "-")
	return strings.Cut(rest, "=")
}

// parseServeSoakFlags reads a serve -soak command line: -soak and -addr are
// serve's, the demo's flags are refused, everything else goes to tripwire
// soak's parser. -h prints serve's help to stdout and returns
// flag.ErrHelp; a command line it cannot run prints why and a hint to
// stderr and returns the error.
func parseServeSoakFlags(args []string, stdout, stderr io.Writer) (serveSoakOptions, error) {
	o, err := splitServeSoakFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		var demo serveOptions
		serveHelp(stdout, serveFlagSet(&demo, stdout))
		return o, err
	}
	if err != nil {
		printError(stderr, "serve -soak", err)
		printHint(stderr, "serve")
	}
	return o, err
}

// splitServeSoakFlags takes serve's flags out of args and gives the rest to
// soakFlags, whose usage text (tripwire soak's) it does not print.
func splitServeSoakFlags(args []string) (serveSoakOptions, error) {
	o := serveSoakOptions{addr: serveDefaults().addr}
	demoOnly := serveDemoOnlyFlags()
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, hasValue := serveFlagToken(a)
		switch {
		case name == "h" || name == "help":
			return o, flag.ErrHelp
		case name == "soak":
		case name == "addr":
			if !hasValue {
				if i+1 == len(args) {
					return o, errors.New("flag needs an argument: -addr")
				}
				i++
				value = args[i]
			}
			o.addr = value
		case demoOnly[name]:
			return o, fmt.Errorf("-%s is a flag of the demo's dependency: it does not apply with -soak", name)
		default:
			rest = append(rest, a)
		}
	}
	if err := checkAddr("addr", o.addr); err != nil {
		return o, err
	}
	cfg, err := soakFlags(rest, io.Discard)
	if err != nil {
		return o, err
	}
	o.cfg = cfg
	return o, nil
}

// serveDemoOnlyFlags are serve's flags that only the demo has.
func serveDemoOnlyFlags() map[string]bool {
	var o serveOptions
	only := map[string]bool{}
	serveFlagSet(&o, io.Discard).VisitAll(func(f *flag.Flag) {
		if f.Name != "addr" && f.Name != "soak" && !serveSoakShared[f.Name] {
			only[f.Name] = true
		}
	})
	return only
}
