package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
	"github.com/tripwire-go/tripwire/state"
)

// ANSI sequences of the live table.
const (
	ansiUp        = "\x1b[%dA"        // cursor up n lines
	ansiHome      = "\x1b[H\x1b[2K\n" // cursor to the screen's top left, that row cleared, down one
	ansiClearDown = "\r\x1b[J"        // to the line's start, clear to the screen's end
	ansiHide      = "\x1b[?25l\x1b[?7l"
	ansiShow      = "\x1b[?25h\x1b[?7h" // cursor shown, long lines wrap again
	ansiReset     = "\x1b[0m"
)

var stateColours = map[state.State]string{
	state.Closed: "\x1b[32m", state.Open: "\x1b[31m", state.HalfOpen: "\x1b[33m",
}

// paint colours s as state st: closed green, open red, half-open yellow.
func paint(st state.State, s string) string {
	if c, ok := stateColours[st]; ok {
		return c + s + ansiReset
	}
	return s
}

const maxLiveEvents = 6 // recent events a frame shows

// liveView redraws a table in place on a terminal, each frame fitted to
// the terminal's size so that no line wraps and the frame never scrolls:
// the next one moves up over it exactly. A frame takes at most one row
// less than the screen has, so its first line is never the screen's top:
// tmux takes clearing from the top left for clearing the screen and pushes
// what was there into scrollback (measured: a frame each redraw). When the size changes it draws again under the
// screen's top row, as a terminal may have reflowed what was there. The
// cursor is hidden and line wrapping off until finish, which gives them
// back and prints the summary.
type liveView struct {
	mu      sync.Mutex
	w       io.Writer
	screen  screen
	cols    []column // the live table's
	summary []column // every column
	about   string   // the title's end: the pattern and the load
	total   time.Duration
	events  []demoEvent // the last maxLiveEvents
	frame   *liveFrame  // on screen, to draw again at a new size
	drawn   int         // line breaks in the frame on screen: the cursor is on its last line
	over    bool        // finish has drawn the last frame
}

func newLiveView(w io.Writer, s screen, p demo.Pattern, keys, callers int, total time.Duration) *liveView {
	cols := demoColumns(p)
	return &liveView{w: w, screen: s, cols: liveColumns(cols), summary: cols, total: total,
		about: fmt.Sprintf("%s · %d key(s) × %d callers", p, keys, callers)}
}

func (v *liveView) every() time.Duration { return 250 * time.Millisecond }

// start prints the header as plain lines, wrapped by the terminal, then
// hides the cursor and turns wrapping off for the frames.
func (v *liveView) start(header []string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	var b bytes.Buffer
	for _, l := range header {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n" + ansiHide)
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
	v.show(fmt.Sprintf("%.2fs of %v", at.Seconds(), v.total), rows)
}

// finish draws the last frame, gives the terminal its cursor and wrapping
// back, and prints the summary under it, fitted to the width.
func (v *liveView) finish(at time.Duration, rows []demo.Row) {
	v.show(fmt.Sprintf("finished after %.2fs", at.Seconds()), rows)
	v.mu.Lock()
	defer v.mu.Unlock()
	v.over = true
	width, _ := v.screen.size()
	lines := summaryLines(at, rows, v.summary, width)
	_, _ = io.WriteString(v.w, "\n"+ansiShow+strings.Join(lines, "\n")+"\n")
}

// show replaces the frame on screen with one of rows, when says how far
// the run is.
func (v *liveView) show(when string, rows []demo.Row) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.frame = &liveFrame{title: "tripwire demo · " + when + " · " + v.about, rows: rows, cols: v.cols,
		events: append([]demoEvent(nil), v.events...)}
	v.draw(false)
}

// redrawOn draws the frame on screen again each time resized delivers,
// until the returned stop is called.
func (v *liveView) redrawOn(resized <-chan os.Signal) (stop func()) {
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		for {
			select {
			case <-done:
				return
			case <-resized:
				v.mu.Lock()
				if v.frame != nil && !v.over {
					v.draw(true)
				}
				v.mu.Unlock()
			}
		}
	}()
	return func() { close(done); <-exited }
}

// draw replaces what is on screen with v.frame fitted to the screen's
// size, in one write: under the screen's top row if home, else from the
// first line of the frame before. v.mu is held.
func (v *liveView) draw(home bool) {
	width, height := v.screen.size()
	lines := v.frame.render(width, height-1, paint)
	var b bytes.Buffer
	switch {
	case home:
		b.WriteString(ansiHome)
	case v.drawn > 0:
		fmt.Fprintf(&b, ansiUp, v.drawn)
	}
	b.WriteString(ansiClearDown)
	b.WriteString(strings.Join(lines, "\n"))
	_, _ = v.w.Write(b.Bytes())
	v.drawn = max(0, len(lines)-1)
}
