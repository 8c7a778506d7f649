package main

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// liveOutput is what a run of the live table wrote.
type liveOutput struct {
	header string       // before the cursor was hidden
	frames []drawnFrame // in the order drawn
	after  string       // after the last frame and the cursor shown again: the summary
}

// drawnFrame is one frame of the live table.
type drawnFrame struct {
	lines []string
	home  bool // drawn from the screen's top
	up    int  // lines the cursor moved up first, to draw over the frame before
}

var cursorUp = regexp.MustCompile(`\x1b\[(\d+)A$`)

// parseLive splits out into the live table's header, frames and summary.
func parseLive(t *testing.T, out string) liveOutput {
	t.Helper()
	header, rest, ok := strings.Cut(out, ansiHide)
	if !ok {
		t.Fatalf("the cursor was never hidden:\n%q", out)
	}
	i := strings.LastIndex(rest, "\n"+ansiShow)
	if i < 0 || strings.Count(out, ansiShow) != 1 {
		t.Fatalf("the cursor was not shown again once, after the frames:\n%q", out)
	}
	lo := liveOutput{header: header, after: rest[i+len("\n"+ansiShow):]}
	parts := strings.Split(rest[:i], ansiClearDown)
	if parts[0] != "" {
		t.Fatalf("%q before the first frame", parts[0])
	}
	var next drawnFrame
	for _, text := range parts[1:] {
		f := next
		next = drawnFrame{}
		if head, home := strings.CutSuffix(text, ansiHome); home {
			text, next.home = head, true
		} else if m := cursorUp.FindStringSubmatchIndex(text); m != nil {
			next.up, _ = strconv.Atoi(text[m[2]:m[3]])
			text = text[:m[0]]
		}
		f.lines = strings.Split(text, "\n")
		lo.frames = append(lo.frames, f)
	}
	return lo
}

// checkFits fails unless each of frames, on a screen of width × height,
// left its top row alone (at most height-1 lines) and took at most width
// columns a line, and each frame but one drawn from home moved up over
// exactly the lines of the one before, so no frame is left on the screen
// under the next.
func checkFits(t *testing.T, frames []drawnFrame, width, height int) {
	t.Helper()
	for i, f := range frames {
		if len(f.lines) > height-1 {
			t.Fatalf("frame %d: %d lines on %d rows", i, len(f.lines), height)
		}
		for _, l := range f.lines {
			if columnsOf(l) > width {
				t.Fatalf("frame %d: a line of %d columns on %d: %q", i, columnsOf(l), width, l)
			}
		}
		if i > 0 && !f.home && f.up != len(frames[i-1].lines)-1 {
			t.Fatalf("frame %d moved up %d lines over a frame of %d", i, f.up, len(frames[i-1].lines))
		}
	}
}

func TestDemoLive(t *testing.T) {
	// Given -live always, on an output that is not a terminal, of 200×50
	// When the demo runs for 3 s
	code, out, errOut := runDemoCmd(t, "-live", "always", "-duration", "3s")

	// Then it succeeds: the header, then the table redrawn in place every 250 ms, then the summary
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	lo := parseLive(t, out)
	if !strings.HasPrefix(lo.header, "demo: 3 key(s)") || strings.Contains(lo.header, "\x1b") {
		t.Errorf("header %q", lo.header)
	}
	if len(lo.frames) < 12 {
		t.Errorf("%d frames, want one every 250 ms", len(lo.frames))
	}
	// And each redraw covers exactly the frame before it, fitted to the screen
	checkFits(t, lo.frames, 200, 50)
	// And the table has its columns, the states coloured (the text, not its padding), and the last transitions
	for _, want := range []string{"KEY     DEP   STATE", "IN FLIGHT", "P99", "RESTARTS",
		"dep-01  down  " + paint(0, "closed") + "  ", "\x1b[31mopen\x1b[0m    ", "closed -> \x1b[31mopen\x1b[0m (threshold",
		"Last transitions:", "tripwire demo · finished after 3.00s · down-up"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%q", want, out)
		}
	}
	// And the summary follows, every column of every key
	if !strings.HasPrefix(lo.after, "\nsummary after 3.00s:\nKEY") || !strings.Contains(lo.after, "REACHED") {
		t.Errorf("after the frames:\n%s", lo.after)
	}
	for _, key := range []string{"dep-01", "dep-02", "dep-03"} {
		summary(t, lo.after, key)
	}
	// And no plain status line or log line is mixed into it
	if strings.Contains(out, "dep=") || errOut != "" {
		t.Errorf("plain lines in live output; stderr %q", errOut)
	}
}

func TestDemoLiveFitsTheTerminal(t *testing.T) {
	// Given the screens a user measured: 130×40 cut the table's header, 80×24
	// lost columns and garbled a cell, and 30 keys piled frames up in scrollback
	for _, c := range []struct{ cols, rows, keys int }{{130, 40, 3}, {80, 24, 3}, {80, 24, 30}, {40, 10, 30}} {
		t.Run(fmt.Sprintf("%d keys at %dx%d", c.keys, c.cols, c.rows), func(t *testing.T) {
			// When the demo runs there for 2 s
			code, out, errOut := runDemoOn(t, fixedScreen(c.cols, c.rows), "-live", "always", "-keys", strconv.Itoa(c.keys), "-duration", "2s")
			if code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, errOut)
			}
			// Then every frame fits the screen and covers the one before it
			lo := parseLive(t, out)
			checkFits(t, lo.frames, c.cols, c.rows)
			last := lo.frames[len(lo.frames)-1].lines
			table, ok := parseTable(last)
			if !ok {
				t.Fatalf("no table in the last frame:\n%s", strings.Join(last, "\n"))
			}
			// And the table shows whole columns, and says which it left out
			live := liveColumns(demoColumns("down-up"))
			hidden := slicesContainPrefix(table.after, "hidden")
			if (len(table.titles) < len(live)) != hidden {
				t.Errorf("titles %q; a note under the table: %v", table.titles, hidden)
			}
			if c.cols >= 130 && len(table.titles) != len(live) {
				t.Errorf("at %d columns, only %q", c.cols, table.titles)
			}
			// And with more keys than rows, it counts the rest in a line
			if len(table.rows) < c.keys && !slicesContainPrefix(table.after, "... and ") && !slicesContainPrefix(table.after, "+") {
				t.Errorf("%d of %d keys and no count of the rest:\n%s", len(table.rows), c.keys, strings.Join(last, "\n"))
			}
			// And the summary names every key, each line fitted to the width
			for i := range c.keys {
				if !strings.Contains(lo.after, fmt.Sprintf("\ndep-%02d ", i+1)) {
					t.Errorf("dep-%02d not in the summary:\n%s", i+1, lo.after)
				}
			}
			for _, l := range strings.Split(lo.after, "\n") {
				if columnsOf(l) > c.cols {
					t.Errorf("summary line of %d columns: %q", columnsOf(l), l)
				}
			}
		})
	}
}

func slicesContainPrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

func TestDemoLiveRedrawsWhenResized(t *testing.T) {
	// Given a screen of 130×40 that becomes 60×20 at 1.1 s and says so
	resizing := func() screen {
		var mu sync.Mutex
		cols, rows := 130, 40
		resized := make(chan os.Signal, 1)
		go func() {
			time.Sleep(1100 * time.Millisecond)
			mu.Lock()
			cols, rows = 60, 20
			mu.Unlock()
			resized <- os.Interrupt // any signal: the view only hears that the size changed
		}()
		return screen{resized: resized, size: func() (int, int) {
			mu.Lock()
			defer mu.Unlock()
			return cols, rows
		}}
	}
	// When the demo runs there for 2 s
	code, out, errOut := runDemoOn(t, resizing, "-live", "always", "-duration", "2s")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	// Then, when told, it drew the frame on screen again at once, from the screen's top
	lo := parseLive(t, out)
	at := -1
	for i, f := range lo.frames {
		if f.home {
			if at >= 0 {
				t.Fatalf("frames %d and %d both drawn from home", at, i)
			}
			at = i
		}
	}
	if at < 1 || lo.frames[at].lines[0] != lo.frames[at-1].lines[0] || !strings.Contains(lo.frames[at].lines[0], "1.00s of 2s") {
		t.Fatalf("frame %d drawn from home, of %d:\n%q", at, len(lo.frames), out)
	}
	// And the frames before fit the old size and used it, those from then on fit the new
	checkFits(t, lo.frames[:at], 130, 40)
	checkFits(t, lo.frames[at:], 60, 20)
	wide := false
	for _, l := range lo.frames[at-1].lines {
		wide = wide || columnsOf(l) > 60
	}
	if !wide {
		t.Errorf("the frame before the resize had no line over 60 columns")
	}
	for _, l := range strings.Split(lo.after, "\n") {
		if columnsOf(l) > 60 {
			t.Errorf("summary line of %d columns: %q", columnsOf(l), l)
		}
	}
}
