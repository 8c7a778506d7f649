package soak_test

import (
	"strings"
	"testing"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/soak"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// healthyReport is a report that breaks no invariant of cfg.
func healthyReport(cfg soak.Config) soak.Report {
	var rep soak.Report
	rep.Calls = 10
	rep.Answers[soak.OK] = 6
	rep.Answers[soak.Open] = 4
	rep.PerKey = []soak.Counts{{soak.OK: 2, soak.Open: 4}, {soak.OK: 4}}
	rep.Scripts = tripwiretest.Counts{Calls: 8}
	rep.Crash = tripwiretest.CrashReport{Crashes: 3, Errors: 1}
	rep.Restarts = 3
	rep.Samples, rep.PeakInvocations, rep.PeakWorkers = 100, 5, 5+soak.WorkerSlack(cfg)
	rep.GoroutinesBefore, rep.GoroutinesAfter = 7, 7
	return rep
}

func TestViolationsCatchEachBrokenInvariant(t *testing.T) {
	cfg := soak.Config{Callers: 4, Askers: 1, CrashEvery: 1, MustSee: []soak.Answer{soak.OK, soak.Open}}
	cases := []struct {
		name  string
		spoil func(r *soak.Report)
		want  string
	}{
		{"unanswered call", func(r *soak.Report) { r.Calls++ }, "11 calls made, 10 answered"},
		{"missing reply", func(r *soak.Report) { r.Calls++; r.Missing = 1 }, "1 missing"},
		{"stuck caller", func(r *soak.Report) { r.Stuck = []int64{42} }, "stuck callers [42]"},
		{"duplicate", func(r *soak.Report) { r.Duplicated = 1 }, "1 duplicated answers"},
		{"crossed", func(r *soak.Report) { r.Crossed = 1 }, "1 answers to another call"},
		{"refused", func(r *soak.Report) { r.Refused = 1 }, "1 refused requests"},
		{"late", func(r *soak.Report) { r.Unexcused = []soak.LateAnswer{{Kind: soak.Timeout}} }, "more than 50ms after their deadline"},
		{"late not kept", func(r *soak.Report) { r.LateLost = 1 }, "1 more not kept"},
		{"per-key mismatch", func(r *soak.Report) { r.PerKey[1][soak.OK]-- }, "per-key tallies"},
		{"unexpected error", func(r *soak.Report) {
			r.Answers[soak.Open]--
			r.Answers[soak.Other]++
			r.PerKey[0][soak.Open]--
			r.PerKey[0][soak.Other]++
		}, "unexpected answers"},
		{"phantom ok", func(r *soak.Report) { r.Scripts.Calls = 5 }, "callers got 6 ok"},
		{"not exercised", func(r *soak.Report) {
			r.Answers[soak.Open], r.Answers[soak.Restarted] = 0, 4
			r.PerKey[0][soak.Open], r.PerKey[0][soak.Restarted] = 0, 4
		}, "no open answer"},
		{"no crash", func(r *soak.Report) { r.Crash.Crashes, r.Restarts = 0, 0 }, "no breaker crashed"},
		{"crash not restarted", func(r *soak.Report) { r.Restarts = 2 }, "2 restarts for 3 crashes"},
		{"restart without a crash", func(r *soak.Report) { r.Restarts = 5 }, "5 restarts for 3 crashes"},
		{"too many workers", func(r *soak.Report) { r.PeakWorkers++ }, "Workers() reached"},
		{"too many target calls", func(r *soak.Report) {
			r.PeakInvocations = soak.InvocationLimit(cfg) + 1
			r.PeakWorkers = r.PeakInvocations
		}, "function-target calls ran at once"},
		{"never sampled", func(r *soak.Report) { r.Samples = 0 }, "Workers() reached"},
		{"goroutines left", func(r *soak.Report) { r.GoroutinesAfter = 9 }, "2 goroutines left after Shutdown"},
		{"harness trouble", func(r *soak.Report) { r.Problems = []string{"Shutdown: timeout"} }, "harness: Shutdown: timeout"},
	}
	// Given a healthy report, Then it has no violation
	if v := healthyReport(cfg).Violations(cfg); len(v) != 0 {
		t.Fatalf("healthy report: %v", v)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Given a report that breaks one invariant
			rep := healthyReport(cfg)
			c.spoil(&rep)
			// When it is checked, Then exactly that violation is reported
			v := rep.Violations(cfg)
			if len(v) != 1 || !strings.Contains(v[0], c.want) {
				t.Fatalf("violations %q, want one containing %q", v, c.want)
			}
		})
	}
}

func TestViolationsOfARunWithoutCrashes(t *testing.T) {
	// Given a run configured without crashes that crashed nothing
	cfg := soak.Config{Callers: 4, Askers: 1}
	rep := healthyReport(cfg)
	rep.Crash, rep.Restarts = tripwiretest.CrashReport{}, 0
	// When it is checked, Then no crash is missed
	if v := rep.Violations(cfg); len(v) != 0 {
		t.Fatalf("violations %q, want none", v)
	}
	// And a restart nobody caused is still one
	rep.Restarts = 1
	if v := rep.Violations(cfg); len(v) != 1 || !strings.Contains(v[0], "1 restarts for 0 crashes") {
		t.Fatalf("violations %q, want the unexplained restart", v)
	}
}
