package task

// Call is what the data plane needs of the breaker's call a Job or an Ask
// is for (actor.Call), which a Completion carries back. Its methods run on
// workers and on callers' and targets' goroutines, never under a lock of
// the data plane's.
type Call interface {
	// Release: the data plane is done with the call (its function target
	// returned, its job was dropped, its ask was answered or abandoned).
	Release()
	// Deliver hands an Ask's reply to the call's caller, which makes its
	// Completion and posts it (on the target's goroutine, the breaker's
	// inline turn would grow a fresh stack on every reply).
	Deliver(*Ask)
	// Owner is the mailbox the call's asks belong to (Router.Waiting).
	Owner() Inbox
	// For a call its caller admitted without its breaker (Job.ByCaller):
	// Admitted reports, before the target runs, whether the circuit that
	// admitted it still does, else the worker hands the job back with
	// Redirect; Finish may take the classified outcome itself (true: the
	// worker posts nothing). Either way the worker is done with the job.
	Admitted() bool
	Redirect()
	Finish(o *Completion) bool
}
