package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/soak"
)

// soakProgress prints a soak's progress: on a terminal one line redrawn in
// place, elsewhere a line each time.
type soakProgress struct {
	w     io.Writer
	width func() int // the terminal's columns (0: unknown); nil: not a terminal
	total time.Duration
	shown bool // a line is on a terminal, not yet ended
}

// newSoakProgress prints to w; width, if not nil, says w is a terminal and
// how wide it is now.
func newSoakProgress(w io.Writer, width func() int, total time.Duration) *soakProgress {
	return &soakProgress{w: w, width: width, total: total}
}

// show prints p. It is soak.Config.Progress: soak calls it from one
// goroutine at a time, and never after Run returns.
func (l *soakProgress) show(p soak.Progress) {
	fields := soakProgressFields(p, l.total)
	if l.width == nil {
		fmt.Fprintln(l.w, strings.Join(fields, "  "))
		return
	}
	// Back to the line's start, the fields that fit short of the last
	// column (so the line cannot wrap, and \r returns to its start), then
	// clear what is left of the last one.
	fmt.Fprint(l.w, "\r"+fitFields(fields, l.width()-1)+"\x1b[K")
	l.shown = true
}

// end ends the line a terminal shows, so what follows starts on its own.
func (l *soakProgress) end() {
	if l.shown {
		fmt.Fprintln(l.w)
		l.shown = false
	}
}

// soakProgressFields are one progress line's fields, the most telling first.
func soakProgressFields(p soak.Progress, total time.Duration) []string {
	return []string{
		fmt.Sprintf("%v/%v", p.Elapsed.Round(time.Second), total),
		fmt.Sprintf("calls %d", p.Calls),
		fmt.Sprintf("in flight %d", p.InFlight()),
		fmt.Sprintf("ok %d", p.Answers[soak.OK]),
		fmt.Sprintf("open %d", p.Answers[soak.Open]),
		fmt.Sprintf("restarted %d", p.Answers[soak.Restarted]),
		fmt.Sprintf("late %d", p.Late),
		fmt.Sprintf("max over %v", p.MaxOver.Round(time.Millisecond)),
		fmt.Sprintf("goroutines %d", p.Goroutines),
		fmt.Sprintf("workers %d", p.Workers),
	}
}

// fitFields joins the first fields that fit in width columns (width < 1:
// all of them); the first is cut if even it does not fit.
func fitFields(fields []string, width int) string {
	line := fields[0]
	if width < 1 {
		return strings.Join(fields, "  ")
	}
	for _, f := range fields[1:] {
		if visibleWidth(line)+2+visibleWidth(f) > width {
			break
		}
		line += "  " + f
	}
	return cut(line, width)
}
