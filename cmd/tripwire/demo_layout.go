package main

import (
	"fmt"
	"strings"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
	"github.com/tripwire-go/tripwire/state"
)

// dropOrder names the columns a table too wide for its terminal leaves
// out, first to last: the summary's extras, then what the others imply or
// the last transitions tell. KEY goes only if it alone is too wide.
var dropOrder = []string{"REACHED", "RESTARTED", "P50", "IN FLIGHT", "OK", "P99", "RESTARTS",
	"TIMEOUTS", "ERRORS", "CALLS", "FAILURES", "REJECTED", "DEP", "STATE", "KEY"}

// tableLayout is a table's columns fitted to a width: the columns kept, in
// their order, each one's width, and the titles of those left out.
type tableLayout struct {
	cols   []column
	widths []int
	hidden []string // in dropOrder
}

const columnGap = "  "

// fitColumns lays cols out for rows in at most width terminal columns (0:
// any width), leaving out columns in dropOrder until the others fit. If not
// even KEY fits, it keeps none.
func fitColumns(rows []demo.Row, cols []column, width int) tableLayout {
	widths := make([]int, len(cols))
	for j, c := range cols {
		widths[j] = visibleWidth(c.title)
		for _, r := range rows {
			widths[j] = max(widths[j], visibleWidth(c.value(r)))
		}
	}
	kept := make([]bool, len(cols))
	total := -len(columnGap)
	for j := range cols {
		kept[j] = true
		total += widths[j] + len(columnGap)
	}
	for _, title := range dropOrder {
		if width == 0 || total <= width {
			break
		}
		for j, c := range cols {
			if kept[j] && c.title == title {
				kept[j] = false
				total -= widths[j] + len(columnGap)
			}
		}
	}
	var l tableLayout
	for j, c := range cols {
		if kept[j] {
			l.cols = append(l.cols, c)
			l.widths = append(l.widths, widths[j])
		}
	}
	for _, title := range dropOrder {
		for j, c := range cols {
			if !kept[j] && c.title == title {
				l.hidden = append(l.hidden, title)
			}
		}
	}
	return l
}

// lines lays rows out under the layout's titles, one line each, the state
// painted; no line is wider than the widths it was fitted to.
func (l tableLayout) lines(rows []demo.Row, paint func(state.State, string) string) []string {
	if len(l.cols) == 0 {
		return nil
	}
	line := func(cell func(c column) string, r *demo.Row) string {
		var b strings.Builder
		for j, c := range l.cols {
			if j > 0 {
				b.WriteString(columnGap)
			}
			text := cell(c)
			padded := pad(text, l.widths[j], c.numeric)
			if r != nil && c.state { // paint the text, not the padding
				padded = paint(r.State, text) + padded[len(text):]
			}
			b.WriteString(padded)
		}
		return strings.TrimRight(b.String(), " ")
	}
	out := []string{line(func(c column) string { return c.title }, nil)}
	for i := range rows {
		out = append(out, line(func(c column) string { return c.value(rows[i]) }, &rows[i]))
	}
	return out
}

// hiddenNote is the line under a table fitted to width that names the
// columns it left out.
func (l tableLayout) hiddenNote(width int) string {
	list := strings.Join(l.hidden, ", ")
	return firstFitting(width, fmt.Sprintf("hidden to fit %d columns: %s", width, list), "hidden: "+list)
}

// renderTable lays rows out under every column of cols, at any width.
func renderTable(rows []demo.Row, cols []column, paint func(state.State, string) string) []string {
	return fitColumns(rows, cols, 0).lines(rows, paint)
}

// pad fills s with spaces to w terminal columns, on the left if right.
func pad(s string, w int, right bool) string {
	fill := strings.Repeat(" ", max(0, w-visibleWidth(s)))
	if right {
		return fill + s
	}
	return s + fill
}
