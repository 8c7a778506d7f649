// Package task is Tripwire's data plane (internal/: no compatibility
// promise): it runs the calls a caller or a breaker hands it, so that
// neither waits on a target.
//
// A function target runs on a Pool worker, a long-lived goroutine that
// recovers panics, passes the call's deadline in the target's context, and
// never runs a call twice, nor one whose deadline passed first
// (Job.Unstarted). Its outcome goes where the call's route says (see
// internal/actor): to the caller, for a hot key's quiet success; else to the
// key's mailbox as one Completion, for the breaker's turn. An actor target
// is asked through an Ask, sent from the registry's router with a RequestId
// of its own, so the reply (or protoactor's dead letter) comes back to the
// ask's caller, which makes it the call's outcome. A grain (package grain)
// is a function target that finds where it lives now and watches it.
package task
