// Package task is Tripwire's data plane: it runs forwarded calls so that the
// breaker actor never waits on a target.
//
// A function target runs on a Pool worker: a long-lived, supervised goroutine
// that recovers panics, gives the target a context carrying the call's
// deadline, and reports exactly one Outcome to the breaker. An actor target is
// asked through an Ask: a one-shot process registered in the actor system that
// receives the target's reply (or protoactor's dead-letter answer) and turns
// it into exactly one Outcome. Neither ever runs a call twice.
package task
