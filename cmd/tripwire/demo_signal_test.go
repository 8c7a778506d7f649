package main

import (
	"strings"
	"syscall"
	"testing"
)

func TestDemoInterruptedStillSummarises(t *testing.T) {
	for _, c := range []struct {
		live  string
		shown string // in the output once the demo shows something
	}{{"always", "Last transitions:"}, {"never", "dep="}} {
		t.Run("-live "+c.live, func(t *testing.T) {
			// Given the demo with -live c.live writing into a pipe, its screen 70×15 by $COLUMNS and $LINES
			d := startChildEnv(t, []string{"COLUMNS=70", "LINES=15"},
				"demo", "-live", c.live, "-duration", "1m", "-crash-at", "0")
			var out strings.Builder
			for !strings.Contains(out.String(), c.shown) {
				out.WriteString(d.line(t) + "\n")
			}
			// When it is interrupted, as Ctrl-C does
			if err := d.cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			out.WriteString(d.rest())
			d.wait()
			// Then it exits 130, having printed the summary of every key
			if code := d.cmd.ProcessState.ExitCode(); code != exitInterrupted {
				t.Fatalf("exit %d, stderr %q, out:\n%q", code, d.errs.String(), out.String())
			}
			text := out.String()
			if c.live == "never" {
				for _, key := range []string{"dep-01", "dep-02", "dep-03"} {
					summary(t, text, key)
				}
				return
			}
			// And a live table gave the cursor and line wrapping back first, and fitted 70×15
			lo := parseLive(t, strings.TrimSuffix(text, "\n"))
			checkFits(t, lo.frames, 70, 15)
			if !strings.HasPrefix(lo.after, "\nsummary after ") {
				t.Fatalf("after the frames:\n%q", lo.after)
			}
			for _, key := range []string{"dep-01", "dep-02", "dep-03"} {
				if !strings.Contains(lo.after, "\n"+key+" ") {
					t.Errorf("%s not in the summary:\n%s", key, lo.after)
				}
			}
		})
	}
}
