package main

import (
	"fmt"
	"io"
	"time"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/soak"
)

// printSoakReport prints a finished soak's report and every violated invariant
// on a line of its own, and returns the exit status: 0 if every invariant
// held, 1 if not.
func printSoakReport(w io.Writer, cfg soak.Config, rep soak.Report) int {
	end := "done"
	if rep.Interrupted {
		end = "interrupted"
	}
	fmt.Fprintf(w, "soak %s after %v\n", end, rep.Elapsed.Round(time.Millisecond))
	for _, l := range rep.Summary(cfg) {
		fmt.Fprintln(w, "  "+l)
	}
	v := rep.Violations(cfg)
	for _, s := range v {
		fmt.Fprintln(w, "VIOLATED:", s)
	}
	if len(v) != 0 {
		fmt.Fprintf(w, "FAIL: %d invariants violated\n", len(v))
		return 1
	}
	fmt.Fprintln(w, "PASS: every invariant held")
	return 0
}
