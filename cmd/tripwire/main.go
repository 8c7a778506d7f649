// Command tripwire shows Tripwire's circuit breakers at work.
//
//	tripwire demo [flags]   drive a built-in misbehaving dependency through breakers
//	tripwire soak [flags]   the load-and-chaos test; exit 1 if an invariant breaks
//	tripwire serve [flags]  a live dashboard of breakers (JSON API, events, /metrics)
//	tripwire node [flags]   the demo's dependency as a remote actor, for demo -remote
//	tripwire help [CMD]     list the commands, or explain one
//	tripwire CMD -h         explain every flag of CMD
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// command is one subcommand. Each lives in a file of its own and adds itself
// to commands from an init function.
type command struct {
	name    string
	summary string // one line for `tripwire help`
	order   int    // position in `tripwire help`
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("tripwire: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) == 1 {
			usage(stdout)
			return 0
		}
		c, ok := commands[args[1]]
		if !ok {
			return unknownCommand(args[1], stderr)
		}
		return c.run([]string{"-h"}, stdout, stderr)
	}
	c, ok := commands[args[0]]
	if !ok {
		return unknownCommand(args[0], stderr)
	}
	return c.run(args[1:], stdout, stderr)
}

// unknownCommand says on stderr that there is no command name, lists the
// commands there is, and returns the exit code of a bad command line.
func unknownCommand(name string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "tripwire: unknown command %q\n\n", name)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	list := make([]command, 0, len(commands))
	for _, c := range commands {
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].order < list[j].order })
	fmt.Fprint(w, "Usage: tripwire <command> [flags]\n\nCommands:\n")
	for _, c := range list {
		fmt.Fprintf(w, "  %-7s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "  help    this text; `tripwire help CMD` or `tripwire CMD -h` explains CMD's flags\n")
}
