package main

import (
	"fmt"
	"io"
	"time"

	"github.com/tripwire-go/tripwire/internal/soak"
)

// soakProgress prints a soak's progress: on a terminal one line redrawn in
// place, elsewhere a line each time.
type soakProgress struct {
	w        io.Writer
	terminal bool
	total    time.Duration
	shown    bool // a line is on a terminal, not yet ended
}

func newSoakProgress(w io.Writer, terminal bool, total time.Duration) *soakProgress {
	return &soakProgress{w: w, terminal: terminal, total: total}
}

// show prints p. It is soak.Config.Progress: soak calls it from one
// goroutine at a time, and never after Run returns.
func (l *soakProgress) show(p soak.Progress) {
	text := soakProgressText(p, l.total)
	if !l.terminal {
		fmt.Fprintln(l.w, text)
		return
	}
	fmt.Fprint(l.w, "\r"+text+"\x1b[K") // back to the line's start, clear what is left of the last one
	l.shown = true
}

// end ends the line a terminal shows, so what follows starts on its own.
func (l *soakProgress) end() {
	if l.shown {
		fmt.Fprintln(l.w)
		l.shown = false
	}
}

// soakProgressText is one progress line.
func soakProgressText(p soak.Progress, total time.Duration) string {
	return fmt.Sprintf("%v/%v  calls %d  in flight %d  ok %d  open %d  restarted %d  late %d  max over %v  goroutines %d  workers %d",
		p.Elapsed.Round(time.Second), total, p.Calls, p.InFlight(), p.Answers[soak.OK], p.Answers[soak.Open],
		p.Answers[soak.Restarted], p.Late, p.MaxOver.Round(time.Millisecond), p.Goroutines, p.Workers)
}
