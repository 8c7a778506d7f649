package soak

import (
	"fmt"
	"time"
)

// Summary describes the run in labelled lines, for a person: the figures
// the invariants are about first, then what the load and the chaos did.
func (r Report) Summary(cfg Config) []string {
	var lines []string
	line := func(label, format string, args ...any) {
		lines = append(lines, fmt.Sprintf("%-17s %s", label, fmt.Sprintf(format, args...)))
	}
	rate := 0.0
	if s := r.Elapsed.Seconds(); s > 0 {
		rate = float64(r.Calls) / s
	}
	line("calls", "%d in %v (%.0f/s)", r.Calls, r.Elapsed.Round(time.Millisecond), rate)
	line("replies", "%d: %v", r.Replies(), r.Answers)
	line("missing", "%d", r.Missing)
	line("duplicated", "%d (answers to another call %d, refused requests %d)", r.Duplicated, r.Crossed, r.Refused)
	line("late", "%d over %v past their deadline, %d of them not explained by stalls of the process (%d explained by no one probe alone)",
		r.LateCount(), LateSlack, len(r.Unexcused)+int(r.LateLost), r.ExcusedAcross)
	line("max over deadline", "%v", r.MaxOver.Round(time.Microsecond))
	if r.SendsKnown {
		line("late sends", "%d of the late answers sent by Tripwire within %v of their deadline, their callers then waiting up to %v to run; the latest send %v past its deadline (send known for %d of %d answers past their deadline)",
			r.SentOnTime, LateSlack, r.LongestWait.Round(time.Microsecond), r.MaxSentOver.Round(time.Microsecond), r.SentKnown, r.PastDue)
	} else {
		line("late sends", "not recorded (build with -tags tripwire_sendhook)")
	}
	line("restarts", "%d (crashes injected %d, crash errors %d)", r.Restarts, r.Crash.Crashes, r.Crash.Errors)
	line("heap per key", "%d B registered (its breaker, chaos script and target), over a baseline of %s with no key (the actor system, the registry, the soak's own records); the run then added %s (the breakers' statistics, the run's records)",
		r.HeapPerKey, bytesText(r.HeapBase), bytesText(r.HeapGrowth))
	line("goroutines left", "%d (%d before the run, %d after Shutdown)", r.GoroutinesLeft(), r.GoroutinesBefore, r.GoroutinesAfter)
	line("targets", "%d calls: %d injected failures, %d panics, %d hangs, %d downs",
		r.Scripts.Calls, r.Scripts.Failures, r.Scripts.Panics, r.Scripts.Hangs, r.Scripts.Downs)
	line("workers", "peak %d, peak invocations %d, excess %d (slack %d), %d samples; peak goroutines %d",
		r.PeakWorkers, r.PeakInvocations, r.PeakWorkers-r.PeakInvocations, WorkerSlack(cfg), r.Samples, r.PeakGoroutines)
	line("stalls", "%d wake-ups over %v late, longest %v, total %v",
		len(r.Stalls), StallMin, Longest(r.Stalls).Round(time.Microsecond), Total(r.Stalls).Round(time.Microsecond))
	line("runnable waits", "%d sampled over %v, the longest at least %v (%s)",
		r.Sched.Over, LateSlack, r.Sched.Longest.Round(time.Microsecond), schedLatencies)
	return lines
}
