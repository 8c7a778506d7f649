package main

import (
	"io"
	"os"
	"strconv"

	"golang.org/x/term"
)

// fder is what *os.File offers: the descriptor behind a writer.
type fder interface{ Fd() uintptr }

// isTerminal reports whether w writes to a terminal, so output may be
// redrawn in place. A writer that is not a file (a buffer, a pipe wrapper),
// or a file that is not a terminal, is not one.
func isTerminal(w io.Writer) bool {
	f, ok := w.(fder)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalSize is the columns and rows of the terminal w writes to; ok is
// false if w is not a terminal or does not say.
func terminalSize(w io.Writer) (cols, rows int, ok bool) {
	f, isFile := w.(fder)
	if !isFile {
		return 0, 0, false
	}
	cols, rows, err := term.GetSize(int(f.Fd()))
	return cols, rows, err == nil && cols > 0 && rows > 0
}

// screen is where a live table is drawn: the size it must fit, read before
// every frame, and word each time that size changes.
type screen struct {
	size    func() (cols, rows int)
	resized <-chan os.Signal // nil: no word; the next frame still reads the size
}

// screenOf is the screen of w: the terminal's size, or for a writer that is
// not a terminal (-live always into a pipe) $COLUMNS and $LINES, else 80×24;
// resized is the channel notifyResize relays to.
func screenOf(w io.Writer, resized <-chan os.Signal) screen {
	return screen{resized: resized, size: func() (int, int) {
		if cols, rows, ok := terminalSize(w); ok {
			return cols, rows
		}
		return envSize("COLUMNS", 80), envSize("LINES", 24)
	}}
}

// envSize is the positive number in the environment variable name, else def.
func envSize(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}
