// Package actor is Tripwire's control plane — one breaker actor per key — and
// the home of the call protocol: every place that may answer a call is here.
//
// # The breaker
//
// A breaker owns a state.Circuit, the table of the calls in flight it
// admitted (a heap by deadline, with one timer at the earliest; the calls its
// callers admitted while the circuit is closed are not in it), the recovery
// timer and the idle check. It never blocks: a forwarded call goes to the task package (a pool
// worker for a function target, an Ask for an actor target, sent from a
// worker if the target might block its sender) and its task.Completion comes
// back as a message. The state callers read without a message (the published
// circuit state, the rejection they get while it is open, the calls in
// flight) lives in the key's Cell, which outlives the breaker's incarnations.
//
// # The call protocol
//
// A caller (Caller.Do) makes a Call — which carries its own reply channel —
// posts it to its key's Mailbox, and waits on that channel and its context
// only. While the key's circuit is closed the caller admits the call itself
// instead, and hands it to a worker or sends its ask (admitted.go): the
// breaker learns of it from its end. The call gets exactly one answer, from whoever
// settles it first:
//
//   - the breaker, with the target's answer, ErrOpen, or ErrTimeout when its
//     deadline passes (its end method is where every call in flight ends;
//     the deadline of a call its caller admitted is posted to it by the
//     caller's backstop);
//   - the worker that ran a hot key's function target, with its success,
//     while the circuit is closed and a success changes nothing in it: it
//     counts the success on its processor's shard of the key's statistics,
//     which the breaker takes into its window later (hotlane.go);
//   - the caller itself: Withdraw when its context is cancelled, and its
//     backstop timer, ErrTimeout at the deadline plus ReplyGrace, should the
//     breaker be too busy to answer in time (backstop.go: a timer each
//     pooled call keeps, armed, from one use to the next, so a use costs
//     it no timer operation);
//   - the supervisor, with ErrBreakerRestarted for the call whose message a
//     crashing breaker was handling;
//   - the key's mailbox, once the key is gone, with the reason.
//
// An actor target's reply comes to the ask's caller first (Reply): the
// caller, not the target's goroutine, classifies it (on a worker if the key
// has a classifier of its own) and posts the completion to the mailbox.
//
// The Mailbox belongs to the key. It outlives crash-restarts, the fresh
// breaker the supervisor spawns when protoactor gives up on one that crashes
// too often, and passivation: between a breaker's stop and the supervisor's
// verdict messages wait in it; a passivated key's mailbox wakes the key with
// the first message posted; a key that is gone answers what is posted. So a
// call is never lost and never sent twice. A crash hands the calls in flight
// to the next breaker (Cell.orphan and adopt): they keep their deadlines, and
// their targets' answers still reach their callers, counting for nothing (a
// stale generation).
//
// A call of an actor target, once answered from its target's reply, is
// referred to by nothing but its caller and is reused (Caller's pool).
package actor
