package soak

import "fmt"

// WorkerSlack is how far the registry's workers (internal/hook) may exceed the peak number of
// concurrent function-target invocations. Workers() counts a worker from
// just before its goroutine starts until it exits; the invocation count
// counts it only while it is inside the target. The pool starts a worker for
// a job whenever no idle worker is waiting at that instant, so a worker is
// also counted while it is between `go` and the target, and while it is
// reporting an outcome on its way back to waiting for a job. When many calls
// are forwarded at once (at the start, or when a crash answers every call of
// a breaker and all their callers call again), each can find no idle worker
// while the others are still in those steps: one job per call in flight (one
// per goroutine caller plus AskDepth per asker), plus the jobs of calls that a
// crash answered before their worker got there (with a crash every few
// milliseconds, about one more per call in flight). So the slack is twice the
// calls in flight. Measured in TestLoad and TestHotKey: an excess of at most 5 with 64
// callers on 16 keys and up to 122 with 128 callers on one key (160 calls in
// flight); with callers that never paused, 272 callers on one key drove
// Workers() to 277 while no more than 4 invocations ran at once. A leak is
// still caught: a worker started per call would exceed it by thousands.
func WorkerSlack(cfg Config) int64 { return 2 * int64(cfg.Callers+cfg.Askers*AskDepth) }

// InvocationLimit is the most function-target calls a run may have running
// at once: one per call in flight (a crash of a breaker hands its calls on,
// it never abandons them to their targets while their callers call again),
// plus as many again for hung calls, which ignore their context and outlive
// their deadline until released. Before crashes handed calls on, 1,000
// callers on one key crashed every millisecond had 63,000 running.
func InvocationLimit(cfg Config) int64 { return 2 * int64(cfg.Callers+cfg.Askers*AskDepth) }

// Violations returns the invariants of cfg the run broke, one line each; none
// means the run kept every promise.
func (r Report) Violations(cfg Config) []string {
	var v []string
	fail := func(format string, args ...any) { v = append(v, fmt.Sprintf(format, args...)) }
	// Every call got exactly one answer: none missing, none duplicated, none
	// carrying another call's value.
	if n := r.Replies(); n != r.Calls || r.Missing != 0 || len(r.Stuck) != 0 {
		fail("%d calls made, %d answered, %d missing; calls of stuck callers %v", r.Calls, n, r.Missing, r.Stuck)
	}
	if r.Duplicated != 0 || r.Crossed != 0 || r.Refused != 0 {
		fail("%d duplicated answers, %d answers to another call, %d refused requests", r.Duplicated, r.Crossed, r.Refused)
	}
	// No answer later than its deadline + LateSlack, beyond the time the
	// process did not wake goroutines while the caller waited. Where the
	// build knows when Tripwire sent the answer, the send is judged, not
	// the caller's wait to be run after it (LateAnswer.excused).
	if len(r.Unexcused) != 0 || r.LateLost != 0 {
		fail("%d answers came more than %v after their deadline, beyond late wake-ups (%d more not kept); first: %v",
			len(r.Unexcused), LateSlack, r.LateLost, r.Unexcused[:min(5, len(r.Unexcused))])
	}
	// Per-key tallies add up to the callers' totals.
	var sumKeys Counts
	for _, k := range r.PerKey {
		sumKeys.Add(k)
	}
	if sumKeys != r.Answers {
		fail("per-key tallies %v, callers' totals %v", sumKeys, r.Answers)
	}
	// Only the expected kinds of answer.
	if r.Answers[Other] != 0 || r.Answers[ShutDown] != 0 {
		fail("unexpected answers: %v; first: %v", r.Answers, r.Unexpected)
	}
	// No more ok answers or injected failures than the targets gave.
	if r.Answers[OK] > r.Scripts.Calls || r.Answers[Injected] > r.Scripts.Failures {
		fail("callers got %d ok and %d injected failures; targets saw %d calls and injected %d",
			r.Answers[OK], r.Answers[Injected], r.Scripts.Calls, r.Scripts.Failures)
	}
	// The load did what it is for: the faults and crashes happened and calls went through.
	for _, o := range cfg.MustSee {
		if r.Answers[o] == 0 {
			fail("no %v answer: the run did not exercise the system (%v)", o, r.Answers)
		}
	}
	if cfg.CrashEvery > 0 && r.Crash.Crashes == 0 {
		fail("no breaker crashed: %+v", r.Crash)
	}
	// Every crash restarted its breaker, once. A crash whose Crash call
	// failed may or may not have happened.
	if c := int64(r.Crash.Crashes); r.Restarts < c || r.Restarts > c+int64(r.Crash.Errors) {
		fail("breakers counted %d restarts for %d crashes (%d crash errors)", r.Restarts, c, r.Crash.Errors)
	}
	// The calls running in targets stayed within the calls in flight.
	if r.PeakInvocations > InvocationLimit(cfg) {
		fail("%d function-target calls ran at once, over the limit of %d for %d calls in flight",
			r.PeakInvocations, InvocationLimit(cfg), cfg.Callers+cfg.Askers*AskDepth)
	}
	// Workers never exceeded the peak of concurrent invocations + slack.
	if r.PeakWorkers > r.PeakInvocations+WorkerSlack(cfg) || r.Samples == 0 {
		fail("Workers() reached %d: over %d peak invocations + %d (%d samples)",
			r.PeakWorkers, r.PeakInvocations, WorkerSlack(cfg), r.Samples)
	}
	// Nothing of the run is left.
	if n := r.GoroutinesLeft(); n != 0 {
		fail("%d goroutines left after Shutdown (%d before the run, %d after)", n, r.GoroutinesBefore, r.GoroutinesAfter)
	}
	for _, p := range r.Problems {
		fail("harness: %s", p)
	}
	return v
}
