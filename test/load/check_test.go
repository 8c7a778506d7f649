package load

import (
	"fmt"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// workerSlack is how far reg.Workers() may exceed the peak number of
// concurrent function-target invocations. Workers() counts a worker from
// just before its goroutine starts until it exits; the invocation count
// counts it only while it is inside the target. The pool starts a worker for
// a job whenever no idle worker is waiting at that instant, so a worker is
// also counted while it is between `go` and the target, and while it is
// reporting an outcome on its way back to waiting for a job. When many calls
// are forwarded at once (at the start, or when a crash answers every call of
// a breaker and all their callers call again), each can find no idle worker
// while the others are still in those steps: one job per call in flight (one
// per goroutine caller plus askDepth per asker), plus the jobs of calls that a
// crash answered before their worker got there (with a crash every few
// milliseconds, about one more per call in flight). So the slack is twice the
// calls in flight. Measured here: an excess of at most 5 in TestLoad and up
// to 122 with 128 hot callers (160 calls in flight); with callers that never
// paused, 272 hot callers drove Workers() to 277 while no more than 4
// invocations ran at once. A leak is still caught: a worker started per call
// would exceed it by thousands, and a worker that outlives Shutdown fails
// goleak.
func workerSlack(cfg config) int64 { return 2 * int64(cfg.callers+cfg.askers*askDepth) }

// check logs a finished run's report, fails the test for every violated
// invariant, and checks that nothing of the run is left.
func check(t *testing.T, name string, cfg config, rep report) {
	t.Helper()
	logReport(t, name, cfg, rep)
	for _, v := range violations(cfg, rep) {
		t.Error(v)
	}
	// After Shutdown nothing of the run is left.
	goleak.VerifyNone(t)
}

func logReport(t *testing.T, name string, cfg config, rep report) {
	t.Helper()
	c := rep.calls
	t.Logf("%s: %d callers + %d askers × %d keys × %v, think %v, crash every %v", name, cfg.callers, cfg.askers, cfg.keys, cfg.duration, *flagThink, cfg.crashEvery)
	t.Logf("  calls %d (%.0f/s), answers %d: %v", c.started, float64(c.started)/rep.elapsed.Seconds(), c.answers.sum(), c.answers)
	t.Logf("  breakers crashed %d (crash errors %d); targets saw %d calls: %d injected failures, %d panics, %d hangs, %d downs",
		rep.crash.Crashes, rep.crash.Errors, rep.scripts.Calls, rep.scripts.Failures, rep.scripts.Panics, rep.scripts.Hangs, rep.scripts.Downs)
	t.Logf("  latest answer %v past its deadline; %d answers over %v, %d of them beyond what late wake-ups explain (wake-ups over %v late: %d, longest %v, total %v)",
		c.maxOver.Round(time.Microsecond), len(c.lates), lateSlack, len(rep.unexcused), stallMin, len(rep.stalls), longest(rep.stalls), total(rep.stalls))
	t.Logf("  workers: peak %d, peak concurrent invocations %d, excess %d (slack %d), %d samples; peak goroutines %d",
		rep.maxWorkers, rep.peakTarget, rep.maxWorkers-rep.peakTarget, workerSlack(cfg), rep.samples, rep.maxGorout)
	t.Logf("  missing %d, duplicated %d, crossed %d, refused %d", c.missing, c.dups, c.crossed, c.refused)
}

// violations returns the invariants a finished run broke, one line each.
func violations(cfg config, rep report) []string {
	var v []string
	fail := func(format string, args ...any) { v = append(v, fmt.Sprintf(format, args...)) }
	c := rep.calls
	// Every call got exactly one answer: none missing, none duplicated, none
	// carrying another call's value.
	if n := c.answers.sum(); n != c.started || c.missing != 0 || len(rep.stuck) != 0 {
		fail("%d calls started, %d answered, %d missing, stuck %v", c.started, n, c.missing, rep.stuck)
	}
	if c.dups != 0 || c.crossed != 0 || c.refused != 0 {
		fail("%d duplicated answers, %d answers to another call, %d refused requests", c.dups, c.crossed, c.refused)
	}
	// No answer later than its deadline + lateSlack, beyond the time the
	// process did not wake goroutines while the caller waited.
	if len(rep.unexcused) != 0 || c.lateLost != 0 {
		fail("%d answers came more than %v after their deadline, beyond late wake-ups (%d more not kept); first: %v",
			len(rep.unexcused), lateSlack, c.lateLost, rep.unexcused[:min(5, len(rep.unexcused))])
	}
	// Per-key tallies add up to the callers' totals.
	var sumKeys counts
	for _, k := range rep.perKey {
		sumKeys.add(k)
	}
	if sumKeys != c.answers {
		fail("per-key tallies %v, callers' totals %v", sumKeys, c.answers)
	}
	// Only the expected kinds of answer.
	if c.answers[other] != 0 || c.answers[shutdown] != 0 {
		fail("unexpected answers: %v; first: %v", c.answers, c.unexpects)
	}
	// No more ok answers or injected failures than the targets gave.
	if c.answers[okAnswer] > rep.scripts.Calls || c.answers[injected] > rep.scripts.Failures {
		fail("callers got %d ok and %d injected failures; targets saw %d calls and injected %d",
			c.answers[okAnswer], c.answers[injected], rep.scripts.Calls, rep.scripts.Failures)
	}
	// The load did what it is for: the faults and crashes happened and calls went through.
	for _, o := range cfg.mustSee {
		if c.answers[o] == 0 {
			fail("no %v answer: the run did not exercise the system (%v)", o, c.answers)
		}
	}
	if rep.crash.Crashes == 0 {
		fail("no breaker crashed: %+v", rep.crash)
	}
	// Workers never exceeded the peak of concurrent invocations + slack.
	if rep.maxWorkers > rep.peakTarget+workerSlack(cfg) || rep.samples == 0 {
		fail("Workers() reached %d: over %d peak invocations + %d (%d samples)",
			rep.maxWorkers, rep.peakTarget, workerSlack(cfg), rep.samples)
	}
	return v
}
