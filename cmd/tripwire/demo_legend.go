package main

import (
	"strings"
)

// legendNote explains columns whose meaning is not plain; line groups the
// notes into the summary's lines.
type legendNote struct {
	titles []string
	text   string
	line   int
}

var legendNotes = []legendNote{
	{[]string{"FAILURES"}, "the breaker's count of consecutive failures", 0},
	{[]string{"ERRORS", "TIMEOUTS"}, "failed calls callers got", 0},
	{[]string{"REJECTED"}, "ErrOpen or ErrOverloaded, answered without calling the dependency", 1},
	{[]string{"P50", "P99"}, "calls that went through (live: the last 512 a key; summary: the whole run)", 1},
	{[]string{"RESTARTED"}, "calls their breaker was handling when it crashed (ErrBreakerRestarted)", 2},
	{[]string{"RESTARTS"}, "breaker crashes, each restarted closed", 2},
	{[]string{"REACHED"}, "calls that reached the dependency", 2},
}

func (n legendNote) String() string { return strings.Join(n.titles, ", ") + ": " + n.text + "." }

// legend explains the columns whose meaning is not plain, a line per
// group: the live table's two, or the summary's three.
func legend(summary bool) []string {
	lines := make([]string, 2, 3)
	if summary {
		lines = lines[:3]
	}
	for _, n := range legendNotes {
		if n.line < len(lines) {
			lines[n.line] = strings.TrimSpace(lines[n.line] + " " + n.String())
		}
	}
	return lines
}

// legendWidth bounds the legend's lines on a wide terminal, to read as prose.
const legendWidth = 100

// legendFor explains the columns of l whose meaning is not plain, in lines
// of at most width columns (and legendWidth).
func legendFor(l tableLayout, width int) []string {
	shown := map[string]bool{}
	for _, c := range l.cols {
		shown[c.title] = true
	}
	var notes []string
	for _, n := range legendNotes {
		for _, t := range n.titles {
			if shown[t] {
				notes = append(notes, n.String())
				break
			}
		}
	}
	return wrapWords(strings.Join(notes, " "), min(width, legendWidth))
}
