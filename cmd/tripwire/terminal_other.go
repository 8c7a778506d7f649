//go:build !linux

package main

import (
	"io"
	"os"
)

// isTerminal reports whether w writes to a character device: the best
// guess without Linux's termios ioctl.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
