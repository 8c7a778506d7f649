package main

import (
	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
	"github.com/tripwire-go/tripwire/state"
)

// liveFrame is what one frame of the live table shows.
type liveFrame struct {
	title  string     // the first line
	rows   []demo.Row // every key's, in key order
	cols   []column
	events []demoEvent // the last few, oldest first
}

// minLiveRows is how many keys a frame shows, if it has the lines, before it
// gives lines to the last transitions.
const minLiveRows = 5

// render lays the frame out in at most height lines of at most width
// terminal columns, so that it neither wraps nor scrolls: the title; the
// table, its columns fitted to the width (a line under it names those left
// out); the legend; the last transitions. When lines run short the legend
// goes first, then the transitions, then keys: a table that cannot show
// every key shows the worst first and counts the rest by state in a line.
func (f liveFrame) render(width, height int, paint func(state.State, string) string) []string {
	if width < 1 || height < 1 {
		return nil
	}
	layout := fitColumns(f.rows, f.cols, width)
	left := height - 1 // the title's line
	var hidden string
	if len(layout.hidden) > 0 && left > 0 {
		hidden = layout.hiddenNote(width)
		left--
	}
	n := len(f.rows)
	fits := n // keys the table can show: none if no column fits
	if len(layout.cols) == 0 {
		fits = 0
	}
	size := func(k int) int { return tableLines(k, n) }

	k := 0 // keys shown
	for k < min(fits, minLiveRows) && size(k+1) <= left {
		k++
	}
	table := size(k) <= left // false if not even the count of keys fits
	if table {
		left -= size(k)
	}
	events := 0
	if left >= 3 { // a blank line, the heading and one event
		events = min(max(1, len(f.events)), left-2)
		left -= 2 + events
	}
	if table {
		budget := left + size(k)
		switch {
		case fits == n && size(n) <= budget:
			k = n
		case fits > 0:
			k = max(k, min(n-1, budget-2)) // the header, k keys and the count of the rest
		}
		left = budget - size(k)
	}
	gap := left > 0 // a blank line under the title
	if gap {
		left--
	}
	legend := legendFor(layout, width)
	if len(legend)+1 > left {
		legend = nil
	}

	out := []string{cut(f.title, width)}
	if gap {
		out = append(out, "")
	}
	if table {
		out = append(out, f.table(layout, k, paint, width)...)
	}
	if hidden != "" {
		out = append(out, hidden)
	}
	if len(legend) > 0 {
		out = append(append(out, ""), legend...)
	}
	if events > 0 {
		out = append(out, "", "Last transitions:")
		out = append(out, f.eventLines(events, paint, width)...)
	}
	return out
}

// tableLines is how many lines a table of n keys takes showing k of them:
// the header and k rows, and a line counting the rest if k < n.
func tableLines(k, n int) int {
	lines := 0
	if k > 0 {
		lines = 1 + k
	}
	if k < n {
		lines++
	}
	return lines
}

// table is the table's lines showing k keys: all in key order, or the k
// worst and a line counting the rest by state (with no key, that line).
func (f liveFrame) table(l tableLayout, k int, paint func(state.State, string) string, width int) []string {
	if k == len(f.rows) {
		return l.lines(f.rows, paint)
	}
	worst := worstFirst(f.rows)
	if k == 0 {
		return []string{countRest(worst, true, width)}
	}
	return append(l.lines(worst[:k], paint), countRest(worst[k:], false, width))
}

// eventLines are the last n events, or a line saying there is none yet.
func (f liveFrame) eventLines(n int, paint func(state.State, string) string, width int) []string {
	if len(f.events) == 0 {
		return []string{"  (none yet)"}
	}
	var out []string
	for _, e := range f.events[len(f.events)-n:] {
		out = append(out, cut(e.line(paint), width))
	}
	return out
}
