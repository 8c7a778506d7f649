package main

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/demo"
)

// ANSI sequences of the live table.
const (
	ansiUp        = "\x1b[%dA" // cursor up n lines
	ansiClearDown = "\r\x1b[J" // to the line's start, clear to the screen's end
	ansiHide      = "\x1b[?25l\x1b[?7l"
	ansiShow      = "\x1b[?25h\x1b[?7h" // cursor shown, long lines wrap again
	ansiReset     = "\x1b[0m"
)

var stateColours = map[tripwire.State]string{
	tripwire.Closed: "\x1b[32m", tripwire.Open: "\x1b[31m", tripwire.HalfOpen: "\x1b[33m",
}

// paint colours s as state st: closed green, open red, half-open yellow.
func paint(st tripwire.State, s string) string {
	if c, ok := stateColours[st]; ok {
		return c + s + ansiReset
	}
	return s
}

const (
	maxLiveRows   = 20 // keys shown in the live table; the rest are tallied
	maxLiveEvents = 6  // recent events shown under it
)

// liveView redraws a table in place on a terminal: the cursor is hidden and
// long lines are cut rather than wrapped while it draws, so each frame takes
// as many lines as it has and the next can move up over it.
type liveView struct {
	mu     sync.Mutex
	w      io.Writer
	cols   []column
	title  string
	total  time.Duration
	events []demoEvent // the last maxLiveEvents
	drawn  int         // lines of the frame on screen
}

func newLiveView(w io.Writer, p demo.Pattern, keys, callers int, total time.Duration) *liveView {
	return &liveView{w: w, cols: liveColumns(demoColumns(p)), total: total,
		title: fmt.Sprintf("tripwire demo · %s · %d key(s) × %d callers", p, keys, callers)}
}

func (v *liveView) every() time.Duration { return 250 * time.Millisecond }

func (v *liveView) start(header []string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	var b bytes.Buffer
	b.WriteString(ansiHide)
	for _, l := range header {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n")
	_, _ = v.w.Write(b.Bytes())
}

func (v *liveView) event(e demoEvent) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.events = append(v.events, e)
	if len(v.events) > maxLiveEvents {
		v.events = v.events[len(v.events)-maxLiveEvents:]
	}
}

func (v *liveView) status(at time.Duration, rows []demo.Row) {
	v.draw(fmt.Sprintf("%s · %.2fs of %v", v.title, at.Seconds(), v.total), rows, "")
}

func (v *liveView) finish(at time.Duration, rows []demo.Row) {
	v.draw(fmt.Sprintf("%s · finished after %.2fs", v.title, at.Seconds()), rows, ansiShow)
}

// draw replaces the frame on screen with a new one, in one write.
func (v *liveView) draw(title string, rows []demo.Row, after string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	lines := []string{title, ""}
	shown := rows[:min(len(rows), maxLiveRows)]
	lines = append(lines, renderTable(shown, v.cols, paint)...)
	if rest := rows[len(shown):]; len(rest) > 0 {
		lines = append(lines, fmt.Sprintf("... and %d more keys: %s", len(rest), tally(rest)))
	}
	lines = append(lines, "")
	lines = append(lines, legend(false)...)
	lines = append(lines, "", "Last transitions:")
	for _, e := range v.events {
		lines = append(lines, e.line(paint))
	}
	if len(v.events) == 0 {
		lines = append(lines, "  (none yet)")
	}

	var b bytes.Buffer
	if v.drawn > 0 {
		fmt.Fprintf(&b, ansiUp, v.drawn)
	}
	b.WriteString(ansiClearDown)
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	b.WriteString(after)
	_, _ = v.w.Write(b.Bytes())
	v.drawn = len(lines)
}
