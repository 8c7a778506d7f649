// Package task is Tripwire's data plane: it runs forwarded calls so that the
// breaker actor never waits on a target.
//
// A function target runs on a Pool worker: a long-lived, supervised goroutine
// that recovers panics, gives the target a context carrying the call's
// deadline, and reports exactly one Completion to the breaker. An actor target is
// asked through an Ask: the request's sender is the registry's Router (one
// process registered in the actor system) with a RequestId of the ask's own,
// so the target's reply (or protoactor's dead-letter answer) comes back to
// the ask, which turns it into exactly one Completion. A cluster grain
// (package grain) is a function target: it finds the grain where it lives
// now and watches it while it waits. None ever runs a call twice, except a
// grain call whose message provably reached no actor.
package task
