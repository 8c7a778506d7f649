//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// ptyChild is a tripwire command in a child process whose stdout is a
// pseudo-terminal of this test's, whose size the test sets.
type ptyChild struct {
	cmd    *exec.Cmd
	master *os.File
	chunks chan string // what the child wrote, as the terminal shows it
	seen   strings.Builder
}

// startOnPty runs `tripwire args...` with stdout on a new pseudo-terminal
// of cols×rows; the test's cleanup kills it if it still runs.
func startOnPty(t *testing.T, cols, rows int, args ...string) *ptyChild {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	fd := int(master.Fd())
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err == nil {
		err = unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0)
	}
	if err != nil {
		master.Close()
		t.Fatalf("pseudo-terminal: %v", err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		t.Fatal(err)
	}
	c := &ptyChild{cmd: exec.Command(os.Args[0], "-test.run=^$"), master: master, chunks: make(chan string, 64)}
	c.resize(t, cols, rows)
	c.cmd.Env = append(os.Environ(), childEnv+"="+strings.Join(args, " "))
	c.cmd.Stdout = tty
	err = c.cmd.Start()
	tty.Close() // the child has its own; the master reads EIO once it exits
	if err != nil {
		master.Close()
		t.Fatal(err)
	}
	read := make(chan struct{})
	go func() {
		defer close(read)
		defer close(c.chunks)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			if n > 0 {
				c.chunks <- strings.ReplaceAll(string(buf[:n]), "\r\n", "\n") // the terminal's output processing
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = c.cmd.Process.Kill()
		_ = c.cmd.Wait()
		for range c.chunks { // until the reader has seen the end
		}
		<-read
		master.Close()
	})
	return c
}

// resize sets the terminal's size, as a terminal window does when resized.
func (c *ptyChild) resize(t *testing.T, cols, rows int) {
	t.Helper()
	if err := unix.IoctlSetWinsize(int(c.master.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}); err != nil {
		t.Fatal(err)
	}
}

// waitFor reads the child's output until what it has written contains s,
// failing the test after 10 s; or, with s empty, until it ends.
func (c *ptyChild) waitFor(t *testing.T, s string) string {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for s == "" || !strings.Contains(c.seen.String(), s) {
		select {
		case chunk, ok := <-c.chunks:
			if !ok {
				if s != "" {
					t.Fatalf("the child ended without writing %q:\n%q", s, c.seen.String())
				}
				return c.seen.String()
			}
			c.seen.WriteString(chunk)
		case <-timeout:
			t.Fatalf("no %q from the child in 10 s:\n%q", s, c.seen.String())
		}
	}
	return c.seen.String()
}

func TestDemoOnATerminalRedrawsOnSIGWINCH(t *testing.T) {
	// Given the demo on a terminal of 100×30
	d := startOnPty(t, 100, 30, "demo", "-duration", "1m", "-crash-at", "0")
	d.waitFor(t, "Last transitions:")
	// When the terminal becomes 60×20 and says so, as a window does
	d.resize(t, 60, 20)
	if err := d.cmd.Process.Signal(syscall.SIGWINCH); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, ansiHome)
	// And then it is interrupted
	if err := d.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	out := d.waitFor(t, "")
	if err := d.cmd.Wait(); d.cmd.ProcessState.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v:\n%q", err, out)
	}
	// Then it drew on the terminal at its size, and at once again from the top at the new one
	lo := parseLive(t, strings.TrimSuffix(out, "\n"))
	at := 0
	for at < len(lo.frames) && !lo.frames[at].home {
		at++
	}
	if at == 0 || at == len(lo.frames) {
		t.Fatalf("frame %d of %d drawn from home", at, len(lo.frames))
	}
	checkFits(t, lo.frames[:at], 100, 30)
	checkFits(t, lo.frames[at:], 60, 20)
	// And the summary followed, fitted to the new width
	for _, l := range strings.Split(lo.after, "\n") {
		if columnsOf(l) > 60 {
			t.Errorf("summary line of %d columns: %q", columnsOf(l), l)
		}
	}
}
