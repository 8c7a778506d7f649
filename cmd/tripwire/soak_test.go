package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/soak"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// shortSoak is a small run with every kind of caller, target and fault.
var shortSoak = []string{"soak", "-duration", "1500ms", "-callers", "8", "-keys", "4", "-actor-every", "2", "-seed", "3"}

func TestSoakShortRunPassesAndPrintsTheReport(t *testing.T) {
	// Given a short soak run, When it runs
	var out, errOut bytes.Buffer
	code := run(shortSoak, &out, &errOut)
	// Then it exits 0 with nothing on stderr
	if code != 0 || errOut.Len() != 0 {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errOut.String(), out.String())
	}
	// And stdout has a plain progress line (not a terminal: no \r) and the report
	text := out.String()
	if !strings.Contains(text, "\n1s/1.5s  calls ") || strings.Contains(text, "\r") {
		t.Errorf("no plain progress line:\n%s", text)
	}
	for _, label := range []string{"calls", "replies", "missing", "duplicated", "late", "max over deadline", "restarts", "goroutines left"} {
		if !strings.Contains(text, "\n  "+label+" ") {
			t.Errorf("report has no %q line:\n%s", label, text)
		}
	}
	if !strings.Contains(text, "\n  missing           0\n") || !strings.Contains(text, "\nPASS: every invariant held\n") {
		t.Errorf("not a passing report:\n%s", text)
	}
}

func TestSoakExitsOneWhenAnInvariantIsViolated(t *testing.T) {
	// Given a run that must see an answer no healthy run gives
	args := []string{"soak", "-duration", "300ms", "-callers", "4", "-keys", "2", "-must-see", "ok,shutdown"}
	// When it runs
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	// Then it exits 1 and names the violation on a line of its own
	if code != 1 || !strings.Contains(out.String(), "\nVIOLATED: no shutdown answer") ||
		!strings.Contains(out.String(), "\nFAIL: 1 invariants violated\n") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s", code, out.String(), errOut.String())
	}
}

func TestSoakRefusesBadFlags(t *testing.T) {
	cases := []struct {
		args []string
		want string // on stderr
	}{
		{[]string{"-callers", "-1"}, "-callers=-1: want ≥ 0"},
		{[]string{"-callers", "0", "-askers", "0"}, "-callers + -askers=0: want ≥ 1"},
		{[]string{"-keys", "0"}, "-keys=0"},
		{[]string{"-duration", "0s"}, "-duration=0s"},
		{[]string{"-think", "-1ms"}, "-think=-1ms"},
		{[]string{"-fail-rate", "1.5"}, "-fail-rate=1.5: want 0..1"},
		{[]string{"-hang-rate", "NaN"}, "-hang-rate=NaN"},
		{[]string{"-crash-every", "-5ms"}, "-crash-every=-5ms"},
		{[]string{"-release-every", "0s"}, "-release-every=0s"},
		{[]string{"-actor-every", "-2"}, "-actor-every=-2"},
		{[]string{"-must-see", "ok,nope"}, `"nope" is not an outcome`},
		{[]string{"-callers", "many"}, `invalid value "many" for flag -callers`},
		{[]string{"-no-such-flag"}, "flag provided but not defined: -no-such-flag"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	}
	for _, c := range cases {
		// Given a bad flag, When soak runs with it
		var out, errOut bytes.Buffer
		code := run(append([]string{"soak"}, c.args...), &out, &errOut)
		// Then it exits 2 at once, says why on stderr, and runs nothing
		if code != 2 || !strings.Contains(errOut.String(), c.want) || out.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", c.args, code, out.String(), errOut.String(), c.want)
		}
	}
}

// soakFlagNames are every flag of soak.
var soakFlagNames = []string{"callers", "askers", "keys", "actor-every", "duration", "think", "fail-rate", "hang-rate",
	"release-every", "crash-every", "panic-every", "burst-every", "kill-targets", "seed", "must-see"}

func TestSoakHelpExplainsEveryFlag(t *testing.T) {
	for _, args := range [][]string{{"help", "soak"}, {"soak", "-h"}} {
		// Given a request for soak's help, When it runs
		var out, errOut bytes.Buffer
		code := run(args, &out, &errOut)
		// Then it exits 0 and explains the command, its exit status and every flag
		text := out.String() + errOut.String()
		if code != 0 || !strings.Contains(text, "Usage: tripwire soak") || !strings.Contains(text, "Exit status: 0") {
			t.Fatalf("%v: exit %d:\n%s", args, code, text)
		}
		for _, f := range soakFlagNames {
			if !strings.Contains(text, "\n  -"+f+" ") && !strings.Contains(text, "\n  -"+f+"\n") {
				t.Errorf("%v: flag -%s not explained:\n%s", args, f, text)
			}
		}
	}
	// And tripwire help lists the command
	var out bytes.Buffer
	if code := run([]string{"help"}, &out, &out); code != 0 || !strings.Contains(out.String(), "\n  soak ") {
		t.Fatalf("help: exit %d:\n%s", code, out.String())
	}
}

func TestSoakDefaultsToOneAskerPerSixteenCallers(t *testing.T) {
	cases := []struct {
		args   []string
		askers int
	}{
		{nil, 4},
		{[]string{"-callers", "8"}, 1},
		{[]string{"-callers", "512"}, 32},
		{[]string{"-callers", "512", "-askers", "0"}, 0},
	}
	for _, c := range cases {
		// Given callers and maybe askers, When the flags are read
		cfg, err := soakFlags(c.args, &bytes.Buffer{})
		// Then askers default to callers/16, at least 1, unless set
		if err != nil || cfg.Askers != c.askers {
			t.Errorf("%v: askers %d, %v; want %d", c.args, cfg.Askers, err, c.askers)
		}
	}
}

// soakHealthyReport is a finished run that broke no invariant of cfg.
func soakHealthyReport(cfg soak.Config) soak.Report {
	rep := soak.Report{Calls: 10, Elapsed: time.Second, Samples: 10, Restarts: 2, GoroutinesBefore: 3, GoroutinesAfter: 3}
	rep.Answers[soak.OK], rep.Answers[soak.Open] = 6, 4
	rep.PerKey = []soak.Counts{rep.Answers}
	rep.Scripts = tripwiretest.Counts{Calls: 6}
	rep.Crash = tripwiretest.CrashReport{Crashes: 2}
	return rep
}

func TestSoakReportExitStatus(t *testing.T) {
	cfg := soak.Defaults()
	cases := []struct {
		name  string
		spoil func(*soak.Report)
		code  int
		lines []string
	}{
		{"healthy", func(*soak.Report) {}, 0, []string{"PASS: every invariant held"}},
		{"one missing", func(r *soak.Report) { r.Calls, r.Missing = 11, 1 }, 1,
			[]string{"VIOLATED: 11 calls made, 10 answered, 1 missing", "FAIL: 1 invariants violated"}},
		{"late and leaking", func(r *soak.Report) {
			r.Unexcused = []soak.LateAnswer{{Kind: soak.Timeout}}
			r.GoroutinesAfter = 5
		}, 1, []string{"VIOLATED: 1 answers came more than 50ms", "VIOLATED: 2 goroutines left after Shutdown", "FAIL: 2 invariants violated"}},
	}
	for _, c := range cases {
		// Given a finished run's report
		rep := soakHealthyReport(cfg)
		c.spoil(&rep)
		// When it is printed
		var out bytes.Buffer
		code := printSoakReport(&out, cfg, rep)
		// Then the exit status says whether an invariant was violated, and
		// each violation has a line of its own
		if code != c.code {
			t.Errorf("%s: exit %d, want %d:\n%s", c.name, code, c.code, out.String())
		}
		for _, l := range c.lines {
			if !strings.Contains(out.String(), "\n"+l) {
				t.Errorf("%s: no line %q:\n%s", c.name, l, out.String())
			}
		}
	}
}

func TestSoakProgressRedrawsOnlyOnATerminal(t *testing.T) {
	p := soak.Progress{Elapsed: time.Second, Calls: 12, Answers: soak.Counts{soak.OK: 9, soak.Open: 1}}
	text := "1s/3s  calls 12  in flight 2  ok 9  open 1  restarted 0  late 0  max over 0s  goroutines 0  workers 0"
	for _, c := range []struct {
		cols int
		want string // the line drawn
	}{
		{200, text},
		{len(text) + 1, text},
		{len(text), strings.TrimSuffix(text, "  workers 0")}, // the last column stays free
		{40, "1s/3s  calls 12  in flight 2  ok 9"},
		{4, "1s…"}, // not even the first field fits: it is cut
	} {
		// Given a progress line on a terminal of c.cols, When two reports and the end come
		var term bytes.Buffer
		l := newSoakProgress(&term, func() int { return c.cols }, 3*time.Second)
		l.show(p)
		l.show(p)
		l.end()
		// Then each redraws the one line in place with the fields that fit, and the end starts a new one
		one := "\r" + c.want + "\x1b[K"
		if term.String() != one+one+"\n" {
			t.Errorf("at %d columns the terminal got %q, want %q", c.cols, term.String(), one+one+"\n")
		}
	}
	// Given one elsewhere, Then each report is a line of its own, whole
	var plain bytes.Buffer
	l := newSoakProgress(&plain, nil, 3*time.Second)
	l.show(p)
	l.show(p)
	l.end()
	if want := text + "\n" + text + "\n"; plain.String() != want {
		t.Fatalf("plain got %q, want %q", plain.String(), want)
	}
}
