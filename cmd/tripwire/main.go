// Command tripwire shows a Tripwire circuit breaker at work.
//
//	tripwire demo [flags]   drive a flaky built-in dependency through a breaker
//	tripwire help           this text
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "demo":
		return demo(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		usage(stdout)
		return 0
	default:
		fmt.Fprintf(stderr, "tripwire: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `Usage: tripwire <command> [flags]

Commands:
  demo    run a registry on a built-in flaky dependency and print every
          state transition and a tally of outcomes (tripwire demo -h)
  help    show this text
`)
}
