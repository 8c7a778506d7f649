package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
	"github.com/tripwire-go/tripwire/state"
)

// ansiSequence matches the control sequences the live table writes.
var ansiSequence = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// columnsOf is how many terminal columns line takes: its runes, its ANSI
// sequences left out (counted apart from visibleWidth, which it checks).
func columnsOf(line string) int {
	return utf8.RuneCountInString(ansiSequence.ReplaceAllString(line, ""))
}

// testRows are n keys in every state, with counts of realistic widths:
// every seventh open, the one after it half-open, the rest closed.
func testRows(n int) []demo.Row {
	rows := make([]demo.Row, n)
	for i := range rows {
		r := &rows[i]
		r.Key = fmt.Sprintf("dep-%02d", i+1)
		switch i % 7 {
		case 3:
			r.State = state.Open
		case 4:
			r.State = state.HalfOpen
		}
		r.Failures = i % 4
		r.InFlight = i % 3
		r.OK, r.Failed, r.Timeouts, r.Rejected = int64(100000+i*37), int64(i*13%900), int64(i%11), int64(i*101%50000)
		r.Calls = r.OK + r.Failed + r.Timeouts + r.Rejected
		r.P50, r.P99 = time.Duration(2000+i)*time.Microsecond, time.Duration(850+i)*time.Microsecond
		r.Restarts = i % 2
		r.DependencyDown = i%2 == 0
	}
	return rows
}

// testEvents are six transitions, their new states coloured.
func testEvents() []demoEvent {
	var events []demoEvent
	for i := range 6 {
		events = append(events, demoEvent{at: time.Duration(i) * time.Second, key: fmt.Sprintf("dep-%02d", i+1),
			transition: true, from: state.Closed, to: state.Open, detail: "threshold, 3 failures"})
	}
	return events
}

// shownTable is the table a frame drew: its column titles and a row of
// cells per key shown, and the lines that follow it.
type shownTable struct {
	titles []string
	rows   [][]string
	after  []string
}

// parseTable finds the table in a frame's lines; ok is false if it drew none.
func parseTable(lines []string) (t shownTable, ok bool) {
	for i, l := range lines {
		if !strings.HasPrefix(l, "KEY") {
			continue
		}
		t.titles = splitColumns(l)
		rest := lines[i+1:]
		for len(rest) > 0 && strings.HasPrefix(rest[0], "dep-") {
			t.rows = append(t.rows, splitColumns(ansiSequence.ReplaceAllString(rest[0], "")))
			rest = rest[1:]
		}
		t.after = rest
		return t, true
	}
	return t, false
}

func TestLiveFrameFitsEveryScreen(t *testing.T) {
	cols := liveColumns(demoColumns(demo.DownUp))
	for _, keys := range []int{3, 30, 500} {
		rows := testRows(keys)
		byKey := map[string]demo.Row{}
		for _, r := range rows {
			byKey[r.Key] = r
		}
		for _, size := range [][2]int{{80, 24}, {100, 30}, {130, 40}, {200, 50}, {40, 10}, {24, 6}, {12, 3}, {5, 2}, {1, 1}} {
			width, height := size[0], size[1]
			t.Run(fmt.Sprintf("%d keys at %dx%d", keys, width, height), func(t *testing.T) {
				// Given keys in every state and six transitions, on a screen of width × height
				f := liveFrame{title: "tripwire demo · 1.25s of 8s · down-up · 3 key(s) × 4 callers", rows: rows, cols: cols, events: testEvents()}
				// When a frame is drawn
				lines := f.render(width, height, paint)
				// Then it has at most height lines, none wider than the screen
				if len(lines) > height || len(lines) == 0 {
					t.Fatalf("%d lines for %d rows", len(lines), height)
				}
				for _, l := range lines {
					if columnsOf(l) > width {
						t.Fatalf("line of %d columns on %d: %q", columnsOf(l), width, l)
					}
				}
				table, drawn := parseTable(lines)
				if !drawn {
					checkNoTable(t, lines, width, height, keys)
					return
				}
				// And each row's cells are the key's own, whole, under their titles
				for _, cells := range table.rows {
					r := byKey[cells[0]]
					if len(cells) != len(table.titles) {
						t.Fatalf("row %q under %q", cells, table.titles)
					}
					for j, title := range table.titles {
						if want := columnNamed(cols, title).value(r); cells[j] != want {
							t.Errorf("%s %s: %q, want %q", r.Key, title, cells[j], want)
						}
					}
				}
				// And the columns left out are said, in the order they go
				checkHiddenNote(t, cols, table, width)
				// And a table that cannot show every key shows the worst and counts the rest
				checkWorstFirst(t, rows, table)
			})
		}
	}
}

// checkNoTable: a frame without a table is one too small for it, and
// still counts the keys by state if it has the lines.
func checkNoTable(t *testing.T, lines []string, width, height, keys int) {
	t.Helper()
	if width >= 40 && height >= 10 {
		t.Fatalf("no table at %dx%d:\n%s", width, height, strings.Join(lines, "\n"))
	}
	if height >= 3 && !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, fmt.Sprint(keys)) }) {
		t.Errorf("no count of the keys at %dx%d:\n%s", width, height, strings.Join(lines, "\n"))
	}
}

func checkHiddenNote(t *testing.T, cols []column, table shownTable, width int) {
	t.Helper()
	var missing []string
	for _, title := range dropOrder {
		if slices.ContainsFunc(cols, func(c column) bool { return c.title == title }) && !slices.Contains(table.titles, title) {
			missing = append(missing, title)
		}
	}
	note := ""
	for _, l := range table.after {
		if strings.HasPrefix(l, "hidden") {
			note = l
		}
	}
	long := fmt.Sprintf("hidden to fit %d columns: %s", width, strings.Join(missing, ", "))
	short := "hidden: " + strings.Join(missing, ", ")
	switch {
	case len(missing) == 0 && note != "":
		t.Errorf("note %q with every column shown", note)
	case len(missing) > 0 && note != long && note != short && !isCutFrom(note, short):
		t.Errorf("note %q, want %q", note, long)
	}
}

func checkWorstFirst(t *testing.T, rows []demo.Row, table shownTable) {
	t.Helper()
	shown := map[string]bool{}
	worst := 0 // the highest state rank shown so far: no row below may have a lower one
	for i, cells := range table.rows {
		shown[cells[0]] = true
		r := rank(rowNamed(rows, cells[0]).State)
		if len(table.rows) < len(rows) && r < worst {
			t.Errorf("row %d (%s) is worse than one above it", i, cells[0])
		}
		worst = max(worst, r)
		if len(table.rows) == len(rows) && cells[0] != rows[i].Key {
			t.Errorf("every key shown, but row %d is %s, not %s", i, cells[0], rows[i].Key)
		}
	}
	if len(table.rows) == len(rows) {
		return
	}
	var rest []demo.Row
	for _, r := range rows {
		if !shown[r.Key] {
			rest = append(rest, r)
			if rank(r.State) < worst {
				t.Errorf("%s (%s) left out for a better key", r.Key, r.State)
			}
		}
	}
	var n [3]int
	for _, r := range rest {
		n[r.State]++
	}
	long := fmt.Sprintf("... and %d more keys: %d closed, %d open, %d half_open", len(rest), n[state.Closed], n[state.Open], n[state.HalfOpen])
	short := fmt.Sprintf("+%d: %d open, %d half_open, %d closed", len(rest), n[state.Open], n[state.HalfOpen], n[state.Closed])
	if len(table.after) == 0 || !(table.after[0] == long || table.after[0] == short || isCutFrom(table.after[0], short)) {
		t.Errorf("under the table %q, want %q or shorter", table.after, long)
	}
}

// isCutFrom reports whether s is long cut short, "…" in place of its end.
func isCutFrom(s, long string) bool {
	head, cut := strings.CutSuffix(s, "…")
	return cut && strings.HasPrefix(long, head)
}

func columnNamed(cols []column, title string) column {
	i := slices.IndexFunc(cols, func(c column) bool { return c.title == title })
	return cols[i]
}

func rowNamed(rows []demo.Row, key string) demo.Row {
	return rows[slices.IndexFunc(rows, func(r demo.Row) bool { return r.Key == key })]
}

func TestThePlainSummaryExplainsOnlyTheColumnsItShows(t *testing.T) {
	for _, c := range []struct {
		p       demo.Pattern
		reached bool
	}{{demo.DownUp, true}, {demo.Remote, false}} {
		// When the summary of a run against a dependency of pattern p is printed plainly
		lines := strings.Join(summaryLines(time.Second, nil, demoColumns(c.p), 0), "\n")
		// Then its legend explains REACHED only where the table has the column
		hasCol := strings.Contains(lines, "  REACHED")
		explains := strings.Contains(lines, "REACHED: calls that reached the dependency")
		if hasCol != c.reached || explains != c.reached || !strings.Contains(lines, "P50, P99:") {
			t.Errorf("%s: column %v, explained %v, want %v\n%s", c.p, hasCol, explains, c.reached, lines)
		}
	}
}
