package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestIsTerminalTellsBuffersFilesAndPtys(t *testing.T) {
	// Given writers that are not terminals, Then none is one
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for name, w := range map[string]io.Writer{"buffer": &bytes.Buffer{}, "file": file} {
		if isTerminal(w) {
			t.Errorf("%s taken for a terminal", name)
		}
	}
	// Given a pseudo-terminal, Then it is one
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer pty.Close()
	if !isTerminal(pty) {
		t.Error("a pseudo-terminal not taken for one")
	}
}
