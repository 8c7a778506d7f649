// Package task is Tripwire's implementation of the data plane: it runs the
// calls a caller or a breaker hands it, so that neither waits on a target.
// It carries no compatibility promise: it lives under internal/ and exports
// only what another package of the module needs.
//
// A function target runs on a Pool worker: a long-lived goroutine that
// recovers panics, gives the target a context carrying the call's deadline,
// and never runs a call twice, nor one whose deadline passed before it got
// to it (Job.Unstarted). Its outcome goes where the call's route says (see
// internal/actor): to the caller itself, for a hot key's quiet success; else
// to the key's mailbox as one Completion, for the breaker's turn. An actor
// target is asked through an Ask: the request's sender is the registry's
// router (one process registered in the actor system) with a RequestId of
// the ask's own, so the target's reply (or protoactor's dead-letter answer)
// comes back to the ask's caller, which turns it into the call's outcome. A
// cluster grain (package grain) is a function target: it finds the grain
// where it lives now and watches it while it waits.
package task
