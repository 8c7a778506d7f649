package task

// Call is what the data plane needs of the breaker's call that a Job or
// an Ask is for; actor.Call is the one implementation, and a Completion
// carries it back. Its methods are called on workers, the callers' and
// the targets' goroutines, never under a lock of the data plane's.
type Call interface {
	// Release tells the call that the data plane is done with it: its
	// function target returned, its job was dropped, or its ask's reply
	// came or the ask was abandoned.
	Release()
	// Deliver hands an Ask's reply to the call's caller, whose goroutine
	// then makes its Completion (Ask.Completion) and posts it to the key's
	// mailbox: done on the target's goroutine, the breaker's inline turn
	// would run there and grow a fresh goroutine's stack on every reply.
	Deliver(*Ask)
	// Owner is the mailbox the call's asks belong to, for Router.Waiting
	// (nil: none); it is read when an ask starts.
	Owner() Inbox

	// The rest serves a call its caller admitted while the key's circuit
	// was closed, without a turn of its breaker (Job.ByCaller). Admitted
	// reports, just before the target runs, whether the circuit is still
	// the one that admitted it; if not (it moved, or its breaker stopped),
	// the worker hands the job back with Redirect, reports nothing and
	// never touches it again, and the breaker admits it as any other call.
	// Finish is given the job's outcome, classified, before the worker
	// posts it, and reports whether it took the outcome itself: then the
	// worker posts nothing and never touches the job again.
	Admitted() bool
	Redirect()
	Finish(o *Completion) bool
}
