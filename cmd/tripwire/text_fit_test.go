package main

import (
	"slices"
	"testing"

	"github.com/tripwire-go/tripwire/state"
)

func TestCutKeepsColoursWhole(t *testing.T) {
	red := paint(state.Open, "open")
	for _, c := range []struct {
		s     string
		width int
		want  string
	}{
		{"closed", 6, "closed"},
		{"closed", 5, "clos…"},
		{"850µs", 4, "850…"},
		{"a " + red + " b", 8, "a " + red + " b"}, // 8 columns: the colour takes none
		{"a " + red + " b", 5, "a " + "\x1b[31mop…" + ansiReset},
		{"dep-01", 1, "…"},
		{"dep-01", 0, ""},
	} {
		// Given text, maybe coloured, When it is cut to a width
		got := cut(c.s, c.width)
		// Then it takes at most that many columns, "…" where it was cut, no sequence broken
		if got != c.want || visibleWidth(got) > c.width {
			t.Errorf("cut(%q, %d) = %q, want %q", c.s, c.width, got, c.want)
		}
		if columnsOf(got) != visibleWidth(got) {
			t.Errorf("visibleWidth(%q) = %d, columns %d", got, visibleWidth(got), columnsOf(got))
		}
	}
}

func TestWrapWordsBreaksAtSpaces(t *testing.T) {
	// Given prose, When it is wrapped to 12 columns, Then it breaks between words, a long word cut
	got := wrapWords("FAILURES: the breaker's count of consecutive failures.", 12)
	want := []string{"FAILURES:", "the", "breaker's", "count of", "consecutive", "failures."}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := wrapWords("ErrBreakerRestarted", 8); !slices.Equal(got, []string{"ErrBrea…"}) {
		t.Errorf("a word too long: %q", got)
	}
}

func TestFitColumnsDropsByPriority(t *testing.T) {
	// Given the live table's columns and three keys
	rows := testRows(3)
	cols := liveColumns(demoColumns("down-up"))
	full := fitColumns(rows, cols, 0)
	width := len(full.lines(rows, plain)[0])
	// When it has exactly its width, Then it keeps every column
	if l := fitColumns(rows, cols, width); len(l.hidden) != 0 {
		t.Errorf("at its own width %d, hidden %q", width, l.hidden)
	}
	// When it has one column less, Then it leaves out P50 only, the first live column in dropOrder
	if l := fitColumns(rows, cols, width-1); !slices.Equal(l.hidden, []string{"P50"}) {
		t.Errorf("at %d, hidden %q", width-1, l.hidden)
	}
	// When it has room for KEY and STATE only, Then those are what it keeps
	l := fitColumns(rows, cols, len("dep-01  half_open"))
	if len(l.cols) != 2 || l.cols[0].title != "KEY" || l.cols[1].title != "STATE" {
		t.Errorf("kept %d columns, hidden %q", len(l.cols), l.hidden)
	}
	// When not even a key fits, Then it keeps none, and says every one is hidden
	if l := fitColumns(rows, cols, 5); len(l.cols) != 0 || len(l.hidden) != len(cols) {
		t.Errorf("at 5: kept %d, hidden %q", len(l.cols), l.hidden)
	}
}
