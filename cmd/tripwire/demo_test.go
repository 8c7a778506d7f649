package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// runDemoCmd runs `tripwire demo args...` in a synctest bubble, so the
// demo's seconds pass in fake time, and returns its exit code and output.
// A live table fits a screen of 200×50.
func runDemoCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runDemoOn(t, fixedScreen(200, 50), args...)
}

// runDemoOn is runDemoCmd with the live table on a screen of its own; the
// command's signals are left out: os/signal selects on the channels given
// to signal.Notify from outside the bubble, which is a fatal error there.
// The tests of child processes send real signals.
func runDemoOn(t *testing.T, scr func() screen, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		var out, errOut bytes.Buffer
		code = demoCommand(context.Background(), args, &out, &errOut, scr())
		// protoactor's dead-letter throttle waits on a 1 s ticker: let it end.
		time.Sleep(time.Minute)
		synctest.Wait()
		stdout, stderr = out.String(), errOut.String()
	})
	return code, stdout, stderr
}

// fixedScreen is a screen of cols×rows that never changes size.
func fixedScreen(cols, rows int) func() screen {
	return func() screen { return screen{size: func() (int, int) { return cols, rows }} }
}

// summary returns the summary table's cells of key, by column title.
func summary(t *testing.T, out, key string) map[string]int64 {
	t.Helper()
	_, table, ok := strings.Cut(out, "\nsummary after ")
	if !ok {
		t.Fatalf("no summary in:\n%s", out)
	}
	lines := strings.Split(table, "\n")
	header := splitColumns(lines[1])
	for _, l := range lines[2:] {
		cells := strings.Fields(l)
		if len(cells) != len(header) || cells[0] != key {
			continue
		}
		row := map[string]int64{}
		for i, title := range header {
			if n, err := strconv.ParseInt(cells[i], 10, 64); err == nil {
				row[title] = n
			}
		}
		return row
	}
	t.Fatalf("no summary row for %s in:\n%s", key, table)
	return nil
}

// splitColumns splits a header line at runs of two spaces or more ("IN FLIGHT" is one title).
func splitColumns(header string) []string {
	var titles []string
	for _, f := range strings.Split(header, "  ") {
		if f = strings.TrimSpace(f); f != "" {
			titles = append(titles, f)
		}
	}
	return titles
}

func TestDemoDefaultPlain(t *testing.T) {
	// Given no flags and an output that is not a terminal
	// When the demo runs: the README's `go run ./cmd/tripwire demo`
	code, out, errOut := runDemoCmd(t)

	// Then it finishes on its own, with exit code 0
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	// And it wrote plain lines: no ANSI sequence
	if strings.Contains(out, "\x1b[") {
		t.Fatalf("ANSI sequences in plain output:\n%q", out)
	}
	// And each key's breaker opened while its dependency was down, and closed after
	for _, key := range []string{"dep-01", "dep-02", "dep-03"} {
		for _, want := range []string{key + "  closed -> open (threshold, 3 failures)", key + "  half_open -> closed (probe_succeeded, not closed for "} {
			if !strings.Contains(out, want) {
				t.Errorf("no %q in:\n%s", want, out)
			}
		}
		// And a status line every second
		if n := strings.Count(out, key+"  closed    dep=up") + strings.Count(out, key+"  open      dep="); n < 5 {
			t.Errorf("%d status lines of %s", n, key)
		}
		// And its summary row adds up
		row := summary(t, out, key)
		if row["CALLS"] != row["OK"]+row["ERRORS"]+row["TIMEOUTS"]+row["REJECTED"]+row["RESTARTED"] {
			t.Errorf("%s: counts do not add up: %v", key, row)
		}
		if row["REJECTED"] == 0 || row["TIMEOUTS"] == 0 || row["ERRORS"] == 0 {
			t.Errorf("%s: want rejections, timeouts and errors: %v", key, row)
		}
	}
	// And dep-01's breaker was crashed and came back closed, the others untouched
	for _, want := range []string{"6.50s  dep-01  fault injection: the breaker panics",
		"dep-01  restarted by its supervisor: closed, 0 failures, restart #1", "summary after 8.00s:"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if r1, r2 := summary(t, out, "dep-01")["RESTARTS"], summary(t, out, "dep-02")["RESTARTS"]; r1 != 1 || r2 != 0 {
		t.Errorf("restarts %d and %d, want 1 and 0", r1, r2)
	}
	// And the supervisor's own line about the restart went to stderr
	if !strings.Contains(errOut, "breaker restarted") {
		t.Errorf("stderr:\n%s", errOut)
	}
}

func TestDemoPatterns(t *testing.T) {
	one := []string{"-keys", "1", "-crash-at", "0", "-duration", "6s"}
	cases := []struct {
		name string
		args []string
		want []string                    // in the output
		row  func(map[string]int64) bool // the summary row is as the pattern says
	}{
		{"flaky fails at random", []string{"-pattern", "flaky", "-fail-rate", "0.5"},
			[]string{"closed -> open (threshold"},
			func(r map[string]int64) bool { return r["ERRORS"] > 0 && r["OK"] > 0 && r["TIMEOUTS"] == 0 }},
		{"down-up fails and hangs, then recovers", []string{"-pattern", "down-up"},
			[]string{"dep=down", "closed -> open (threshold", "half_open -> closed (probe_succeeded"},
			func(r map[string]int64) bool { return r["ERRORS"] > 0 && r["TIMEOUTS"] > 0 }},
		{"slow times out", []string{"-pattern", "slow"},
			[]string{"dep=slow", "closed -> open (threshold", "half_open -> open (probe_timeout", "half_open -> closed"},
			func(r map[string]int64) bool { return r["TIMEOUTS"] > 0 && r["ERRORS"] == 0 }},
		{"slow under -slow-call succeeds late", []string{"-pattern", "slow", "-slow-call", "100ms"},
			[]string{"closed -> open (threshold", "half_open -> closed"},
			func(r map[string]int64) bool { return r["TIMEOUTS"] == 0 && r["ERRORS"] == 0 && r["REJECTED"] > 0 }},
		{"dies: the target is seen down", []string{"-pattern", "dies"},
			[]string{"dep=dead", "closed -> open (target_down)", "half_open -> closed (probe_succeeded"},
			func(r map[string]int64) bool { return r["REJECTED"] > 0 && r["REACHED"] == r["OK"] }},
		{"a failure-rate window", []string{"-pattern", "flaky", "-window", "20", "-failure-rate", "0.3"},
			[]string{"closed -> open (failure_rate"},
			func(r map[string]int64) bool { return r["REJECTED"] > 0 }},
		{"a bulkhead rejects", []string{"-pattern", "slow", "-callers", "8", "-max-in-flight", "2", "-call-timeout", "1s"},
			[]string{"breakers: threshold 3, open 1s, call timeout 1s, max 2 in flight"},
			func(r map[string]int64) bool { return r["REJECTED"] > 0 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Given one key and the pattern's flags
			// When the demo runs for 6 s
			code, out, errOut := runDemoCmd(t, append(one, c.args...)...)
			// Then it succeeds, and the breaker did what the pattern makes it do
			if code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, errOut)
			}
			for _, want := range c.want {
				if !strings.Contains(out, want) {
					t.Errorf("no %q in:\n%s", want, out)
				}
			}
			if row := summary(t, out, "dep-01"); !c.row(row) {
				t.Errorf("summary row %v", row)
			}
		})
	}
}

func TestDemoBadFlags(t *testing.T) {
	cases := []struct {
		args []string
		want string // in stderr
	}{
		{[]string{"-pattern", "nope"}, `invalid value "nope" for flag -pattern: demo: unknown failure pattern`},
		{[]string{"-keys", "0"}, "tripwire demo: invalid config: keys 0 not in 1..1000"},
		{[]string{"-callers", "1001"}, "invalid config: callers 1001"},
		{[]string{"-up-at", "1s"}, "invalid config: up-at 1s before down-at 1.5s"},
		{[]string{"-fail-rate", "1.5"}, "invalid config: fail rate 1.5"},
		{[]string{"-cycle", "2s"}, "invalid config: cycle 2s shorter than up-at"},
		{[]string{"-duration", "0"}, "-duration 0s must be positive"},
		{[]string{"-crash-at", "-1s"}, "-crash-at -1s must not be negative"},
		{[]string{"-window", "0"}, `invalid value "0" for flag -window`},
		{[]string{"-window", "soon"}, `invalid value "soon" for flag -window`},
		{[]string{"-failure-rate", "0.5"}, "-failure-rate and -min-calls need -window"},
		{[]string{"-live", "sometimes"}, `invalid value "sometimes" for flag -live`},
		{[]string{"-nosuch"}, "flag provided but not defined: -nosuch"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-threshold", "-1"}, "invalid settings: Threshold -1 is negative"},
		{[]string{"-backoff", "0.5"}, "invalid settings: Backoff.Multiplier 0.5"},
		{[]string{"-window", "20", "-min-calls", "30"}, "invalid settings: Window.MinCalls 30 is over its Size 20"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			// Given a command line the demo cannot run
			// When it is run
			code, out, errOut := runDemoCmd(t, c.args...)
			// Then it exits 2 with why and a hint, and shows nothing
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "Run 'tripwire demo -h'") {
				t.Errorf("stderr %q, want %q", errOut, c.want)
			}
			if out != "" {
				t.Errorf("stdout %q", out)
			}
		})
	}
}

func TestDemoHelp(t *testing.T) {
	// Given the demo's flags
	var o demoOptions
	fs := demoFlagSet(&o, io.Discard)
	grouped := map[string]int{}
	for _, g := range flagGroups {
		for _, name := range g.names {
			grouped[name]++
		}
	}
	for _, args := range [][]string{{"help", "demo"}, {"demo", "-h"}} {
		// When the help is asked for
		var out, errOut bytes.Buffer
		code := run(args, &out, &errOut)
		help := out.String() + errOut.String()
		// Then it exits 0 and explains every flag, each in exactly one group
		if code != 0 {
			t.Errorf("%v: exit %d", args, code)
		}
		fs.VisitAll(func(f *flag.Flag) {
			if grouped[f.Name] != 1 {
				t.Errorf("-%s is in %d groups", f.Name, grouped[f.Name])
			}
			if !strings.Contains(help, "\n  -"+f.Name+" ") && !strings.Contains(help, "\n  -"+f.Name+"\n") {
				t.Errorf("%v: -%s not explained", args, f.Name)
			}
		})
	}
	if len(grouped) != countFlags(fs) {
		t.Errorf("%d grouped names, %d flags", len(grouped), countFlags(fs))
	}
}

func countFlags(fs *flag.FlagSet) (n int) {
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n
}

func TestDemoFlagsFillConfig(t *testing.T) {
	// Given flags for every setting
	o, err := parseDemoFlags([]string{"-keys", "7", "-pattern", "dies", "-window", "5s", "-failure-rate", "0.25",
		"-min-calls", "4", "-slow-call", "50ms", "-backoff", "2", "-backoff-max", "8s", "-jitter", "0.2",
		"-probes", "3", "-max-in-flight", "9", "-ignore-target-down", "-seed", "42", "-cycle", "6s"}, io.Discard, io.Discard)
	// Then they land in the demo's config and the breakers' settings
	if err != nil {
		t.Fatal(err)
	}
	s := o.cfg.Settings
	if o.cfg.Keys != 7 || o.cfg.Pattern != "dies" || o.cfg.Seed != 42 || o.cfg.Cycle != 6*time.Second ||
		s.Window.Period != 5*time.Second || s.Window.Size != 0 || s.Window.FailureRate != 0.25 || s.Window.MinCalls != 4 ||
		s.SlowCall != 50*time.Millisecond || s.Backoff.Multiplier != 2 || s.Backoff.Max != 8*time.Second ||
		s.Backoff.Jitter != 0.2 || s.HalfOpenProbes != 3 || s.MaxInFlight != 9 || !s.IgnoreTargetDown {
		t.Fatalf("%+v", o.cfg)
	}
}

func TestFmtDur(t *testing.T) {
	// Given latencies from microseconds to minutes; Then each reads with two or three digits
	for d, want := range map[time.Duration]string{
		0: "-", 850 * time.Microsecond: "850µs", 2345 * time.Microsecond: "2.3ms",
		201 * time.Millisecond: "201ms", 3234 * time.Millisecond: "3.23s", 90 * time.Second: "1m30s",
	} {
		if got := fmtDur(d); got != want {
			t.Errorf("fmtDur(%v) = %q, want %q", d, got, want)
		}
	}
}
