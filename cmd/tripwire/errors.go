package main

import (
	"fmt"
	"io"
	"strings"
)

// packagePrefixes are the prefixes the library and the packages behind the
// commands put on their errors. A command's own "tripwire CMD: " says where
// the message comes from, so printError takes them off the front.
var packagePrefixes = []string{"tripwire: ", "demo: ", "soak: ", "serve: ", "node: "}

// printError says on w that command cmd failed with err, on one line
// starting "tripwire CMD: ", with no prefix doubled.
func printError(w io.Writer, cmd string, err error) {
	fmt.Fprintf(w, "tripwire %s: %s\n", cmd, trimPrefixes(err.Error()))
}

// trimPrefixes takes packagePrefixes off the front of msg, as many as it has.
func trimPrefixes(msg string) string {
	for {
		before := msg
		for _, p := range packagePrefixes {
			msg = strings.TrimPrefix(msg, p)
		}
		if msg == before {
			return msg
		}
	}
}

// printHint points at cmd's help, after an error of its command line.
func printHint(w io.Writer, cmd string) {
	fmt.Fprintf(w, "Run 'tripwire %s -h' for every flag.\n", cmd)
}
