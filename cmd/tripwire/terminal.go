//go:build linux

package main

import (
	"io"

	"golang.org/x/sys/unix"
)

// fder is what *os.File offers: the descriptor behind a writer.
type fder interface{ Fd() uintptr }

// isTerminal reports whether w writes to a terminal, so output may be
// redrawn in place with \r. A writer that is not a file (a buffer, a pipe
// wrapper), or a file that is not a terminal, is not one.
func isTerminal(w io.Writer) bool {
	f, ok := w.(fder)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
