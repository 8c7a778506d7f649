// Package actor is Tripwire's control plane — one breaker actor per key — and
// the home of the call protocol: every place that may answer a call is here.
//
// # The breaker
//
// A breaker owns a state.Circuit, the table of the calls in flight it
// admitted (a heap by deadline, with one tick at the earliest), the recovery
// timer and the idle check. It never blocks: a forwarded call goes to the
// task package (a worker for a function target, an Ask for an actor target)
// and its task.Completion comes back as a message. What callers read without
// a message (the published state, the rejection while it is open, the calls
// in flight) is in the key's Cell, which outlives the breaker's incarnations.
//
// # The call protocol
//
// A caller (Caller.Do) makes a Call, which carries its own reply channel,
// posts it to its key's Mailbox and waits on that channel and its context
// only; while the circuit is closed it admits the call itself instead, and
// the breaker learns of it from its end (admitted.go). The call gets exactly
// one answer, from whoever settles it first:
//
//   - the breaker, with the target's answer, ErrOpen, or ErrTimeout at its
//     deadline (every call in flight ends in its end method);
//   - the worker or caller that got a hot key's success, while a success
//     changes nothing in the circuit (hotlane.go);
//   - the caller itself, when its context is cancelled, and its backstop,
//     with ErrTimeout at the deadline plus ReplyGrace should the breaker be
//     too busy (backstop.go);
//   - the supervisor, with ErrBreakerRestarted for the call a crashing
//     breaker was handling;
//   - the key's mailbox, once the key is gone, with the reason.
//
// An actor target's reply comes to the ask's caller first, which classifies
// it (on a worker if the key has a classifier of its own) and posts the
// completion. The Mailbox belongs to the key and outlives its breakers, so a
// call is never lost and never sent twice; a crash hands the calls in flight
// to the next breaker (Cell.orphan, adopt), and their answers still reach
// their callers, counting nowhere. A call answered from its target's outcome
// is referred to by nothing but its caller, and is reused.
package actor
