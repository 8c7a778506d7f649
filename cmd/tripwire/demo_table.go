package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/demo"
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

// legend explains the columns whose meaning is not plain.
func legend(summary bool) []string {
	lines := []string{
		"FAILURES: the breaker's count of consecutive failures. ERRORS, TIMEOUTS: failed calls callers got.",
		"REJECTED: ErrOpen or ErrOverloaded, answered without calling the dependency. P50, P99: calls that went through.",
	}
	if summary {
		lines = append(lines, "RESTARTED: calls in flight when their breaker crashed (ErrBreakerRestarted). "+
			"RESTARTS: breaker crashes, each restarted closed. REACHED: calls that reached the dependency.")
	}
	return lines
}

// renderTable lays rows out under cols, one line each, the state painted.
func renderTable(rows []demo.Row, cols []column, paint func(tripwire.State, string) string) []string {
	cells := make([][]string, len(rows))
	width := make([]int, len(cols))
	for j, c := range cols {
		width[j] = len(c.title)
	}
	for i, r := range rows {
		cells[i] = make([]string, len(cols))
		for j, c := range cols {
			cells[i][j] = c.value(r)
			width[j] = max(width[j], len(cells[i][j]))
		}
	}
	line := func(texts []string, r *demo.Row) string {
		var b strings.Builder
		for j, c := range cols {
			if j > 0 {
				b.WriteString("  ")
			}
			cell := pad(texts[j], width[j], c.numeric)
			if r != nil && c.state { // paint the text, not the padding
				cell = paint(r.State, texts[j]) + cell[len(texts[j]):]
			}
			b.WriteString(cell)
		}
		return strings.TrimRight(b.String(), " ")
	}
	titles := make([]string, len(cols))
	for j, c := range cols {
		titles[j] = c.title
	}
	out := []string{line(titles, nil)}
	for i := range rows {
		out = append(out, line(cells[i], &rows[i]))
	}
	return out
}

func pad(s string, w int, right bool) string {
	if right {
		return fmt.Sprintf("%*s", w, s)
	}
	return fmt.Sprintf("%-*s", w, s)
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

// tally counts rows by state, for the keys a table leaves out.
func tally(rows []demo.Row) string {
	var n [3]int
	for _, r := range rows {
		if int(r.State) >= 0 && int(r.State) < len(n) {
			n[r.State]++
		}
	}
	return fmt.Sprintf("%d closed, %d open, %d half_open", n[tripwire.Closed], n[tripwire.Open], n[tripwire.HalfOpen])
}
