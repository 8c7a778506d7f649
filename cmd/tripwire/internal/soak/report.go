package soak

import (
	"time"

	"github.com/tripwire-go/tripwire/tripwiretest"
)

// Report is what a run measured. Violations says which invariants it broke.
type Report struct {
	Elapsed     time.Duration // how long the callers called
	Interrupted bool          // the context ended the load before Config.Duration

	Calls      int64        // calls and requests made
	Answers    Counts       // their answers by outcome, summed over callers
	PerKey     []Counts     // the same, by key
	Missing    int64        // calls without an answer: requests never replied to, and the calls of stuck callers
	Stuck      []int64      // ids of the calls of Call callers that never returned
	Duplicated int64        // a second reply to a request, or a reply to a request never made
	Crossed    int64        // answers carrying another call's value, or another key
	Refused    int64        // requests Request refused (no reply comes)
	Unexpected []string     // the first unexpected errors (Other, ShutDown, refusals)
	Late       []LateAnswer // answers more than LateSlack past their deadline (the first 1000 of each caller)
	LateLost   int64        // late answers not kept in Late
	Unexcused  []LateAnswer // the answers of Late that no stall of the process explains
	// ExcusedAcross counts the answers of Late that the probes' stalls
	// explain together and no one probe's alone (see stalls).
	ExcusedAcross int
	MaxOver       time.Duration
	// SendsKnown says whether the build recorded when Tripwire sent each
	// answer (the tag tripwire_sendhook; see sendTimes). If it did:
	// SentOnTime counts the answers of Late that Tripwire sent within
	// LateSlack of their deadline, to callers that then waited to be run,
	// up to LongestWait after the send; MaxSentOver is the latest past its
	// deadline that Tripwire sent any answer; SentKnown counts the answers
	// of PastDue (those that came past their deadline) whose send is known.
	SendsKnown         bool
	SentOnTime         int
	LongestWait        time.Duration
	MaxSentOver        time.Duration
	PastDue, SentKnown int64
	Stalls             []Span // when some processor was not run (the probes' late wake-ups over StallMin, their union)
	// Sched is how long runnable goroutines waited to run, as the runtime
	// sampled it over the run: a late answer's caller may have waited so,
	// which the stall probes do not see (see schedLatencies). Reported only.
	Sched SchedWaits

	Crash    tripwiretest.CrashReport // what CrashEvery did, and Live.Crash
	Restarts int64                    // crash-restarts the breakers counted (Snapshot.Restarts over all keys)
	Scripts  tripwiretest.Counts      // what the targets did, over all keys

	PeakInvocations int64 // most function-target invocations at once
	PeakWorkers     int64 // highest sampled the registry's workers (internal/hook)
	PeakGoroutines  int64 // highest sampled runtime.NumGoroutine()
	Samples         int64 // samples of both

	// HeapBase is the live heap after a full collection once the actor
	// system and the registry are up, before the first key: theirs and the
	// run's own records. HeapPerKey is what each key adds to it (its
	// breaker, chaos script and target): the live heap once the keys are
	// registered, less HeapBase, over Keys. HeapGrowth is what the run adds
	// to that by its end, before Shutdown: the breakers' statistics and the
	// run's records (stalls, tallies), which grow with its length and are
	// no one key's, so they are not shared out per key.
	HeapBase, HeapPerKey, HeapGrowth int64

	GoroutinesBefore int // runtime.NumGoroutine() before the run
	GoroutinesAfter  int // and after Shutdown, once it stopped falling or came back down

	Problems []string // the harness's own trouble: Shutdown failed, an asker did not drain, ...
}

// Replies is the number of answers of every outcome.
func (r Report) Replies() int64 { return r.Answers.Sum() }

// LateCount is the number of answers more than LateSlack past their deadline.
func (r Report) LateCount() int64 { return int64(len(r.Late)) + r.LateLost }

// GoroutinesLeft is how many more goroutines ran after Shutdown than before
// the run.
func (r Report) GoroutinesLeft() int { return max(0, r.GoroutinesAfter-r.GoroutinesBefore) }
