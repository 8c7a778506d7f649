package main

import (
	"slices"
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

// legend explains those of cols whose meaning is not plain, a line per
// group of notes (legendNote.line), for a table of any width.
func legend(cols []column) []string {
	shown := titles(cols)
	var lines []string
	for _, n := range legendNotes {
		if !n.of(shown) {
			continue
		}
		for len(lines) <= n.line {
			lines = append(lines, "")
		}
		lines[n.line] = strings.TrimSpace(lines[n.line] + " " + n.String())
	}
	return slices.DeleteFunc(lines, func(l string) bool { return l == "" })
}

// titles is the set of cols' titles.
func titles(cols []column) map[string]bool {
	shown := map[string]bool{}
	for _, c := range cols {
		shown[c.title] = true
	}
	return shown
}

// of reports whether n explains one of the columns shown.
func (n legendNote) of(shown map[string]bool) bool {
	return slices.ContainsFunc(n.titles, func(t string) bool { return shown[t] })
}

// legendWidth bounds the legend's lines on a wide terminal, to read as prose.
const legendWidth = 100

// legendFor explains the columns of l whose meaning is not plain, in lines
// of at most width columns (and legendWidth).
func legendFor(l tableLayout, width int) []string {
	shown := titles(l.cols)
	var notes []string
	for _, n := range legendNotes {
		if n.of(shown) {
			notes = append(notes, n.String())
		}
	}
	return wrapWords(strings.Join(notes, " "), min(width, legendWidth))
}
