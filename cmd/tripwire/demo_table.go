package main

import (
	"fmt"
	"strconv"
	"time"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
	"github.com/tripwire-go/tripwire/state"
)

// column is one column of the per-key table.
type column struct {
	title   string
	summary bool // only in the summary, not in the live table
	numeric bool // right-aligned
	state   bool // the circuit state, painted
	value   func(demo.Row) string
}

// demoColumns are the table's columns for a dependency of pattern p.
func demoColumns(p demo.Pattern) []column {
	text := func(title string, f func(demo.Row) string) column { return column{title: title, value: f} }
	count := func(title string, f func(demo.Row) int64) column {
		return column{title: title, numeric: true, value: func(r demo.Row) string { return strconv.FormatInt(f(r), 10) }}
	}
	dur := func(title string, f func(demo.Row) time.Duration) column {
		return column{title: title, numeric: true, value: func(r demo.Row) string { return fmtDur(f(r)) }}
	}
	only := func(c column) column { c.summary = true; return c }
	state := text("STATE", func(r demo.Row) string { return r.State.String() })
	state.state = true
	cols := []column{
		text("KEY", func(r demo.Row) string { return r.Key }),
		text("DEP", func(r demo.Row) string { return dependencyText(p, r) }),
		state,
		count("FAILURES", func(r demo.Row) int64 { return int64(r.Failures) }),
		count("IN FLIGHT", func(r demo.Row) int64 { return int64(r.InFlight) }),
		count("CALLS", func(r demo.Row) int64 { return r.Calls }),
		count("OK", func(r demo.Row) int64 { return r.OK }),
		count("ERRORS", func(r demo.Row) int64 { return r.Failed }),
		count("TIMEOUTS", func(r demo.Row) int64 { return r.Timeouts }),
		count("REJECTED", func(r demo.Row) int64 { return r.Rejected }),
		only(count("RESTARTED", func(r demo.Row) int64 { return r.Restarted })),
		dur("P50", func(r demo.Row) time.Duration { return r.P50 }),
		dur("P99", func(r demo.Row) time.Duration { return r.P99 }),
		count("RESTARTS", func(r demo.Row) int64 { return int64(r.Restarts) }),
	}
	if p != demo.Remote { // a node in another process counts its own calls
		cols = append(cols, only(count("REACHED", func(r demo.Row) int64 { return r.DependencyHits })))
	}
	return cols
}

// liveColumns keeps the columns of the live table.
func liveColumns(cols []column) []column {
	var live []column
	for _, c := range cols {
		if !c.summary {
			live = append(live, c)
		}
	}
	return live
}

// countRest is the line under a table that counts by state the rows it
// left out (all of them if none is shown), shortened to fit width.
func countRest(rest []demo.Row, none bool, width int) string {
	open, half, closed := countStates(rest)
	if none {
		return firstFitting(width, fmt.Sprintf("%d keys: %s", len(rest), tally(rest)),
			fmt.Sprintf("%d: %d open, %d half_open, %d closed", len(rest), open, half, closed))
	}
	return firstFitting(width, fmt.Sprintf("... and %d more keys: %s", len(rest), tally(rest)),
		fmt.Sprintf("+%d: %d open, %d half_open, %d closed", len(rest), open, half, closed))
}

// tally counts rows by state, for the keys a table leaves out.
func tally(rows []demo.Row) string {
	open, half, closed := countStates(rows)
	return fmt.Sprintf("%d closed, %d open, %d half_open", closed, open, half)
}

func countStates(rows []demo.Row) (open, half, closed int) {
	for _, r := range rows {
		switch r.State {
		case state.Open:
			open++
		case state.HalfOpen:
			half++
		case state.Closed:
			closed++
		}
	}
	return open, half, closed
}
