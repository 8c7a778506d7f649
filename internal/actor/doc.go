// Package actor is Tripwire's implementation of the control plane — one
// breaker actor per key — and of the call protocol. It carries no
// compatibility promise: it lives under internal/ and exports only what
// another package of the module needs.
//
// # The three routes of a call
//
// A call (Caller.Do) takes one of three routes; the key's Cell publishes
// what a caller needs to pick it without a message:
//
//  1. Closed and hot. The caller admits the call against the closed
//     circuit's generation the Cell publishes (admitted.go) and hands it to
//     a worker; the worker checks the circuit has not moved, runs the
//     target, and on a quiet success answers the caller itself, counting
//     the success on its processor's shard of the key's statistics
//     (hotlane.go). The breaker learns the counts later. An actor target's
//     reply comes to its caller, which does the same.
//  2. Closed and cold. As 1, but the worker (or the ask's caller) posts the
//     outcome to the key's Mailbox, and the breaker's turn counts it and
//     answers.
//  3. Everything else goes through the breaker's turns: a call the circuit
//     must decide (half-open probes, a call posted while the circuit moved),
//     every failure, deadlines (the breaker's tick, or the caller's backstop
//     posting the deadline of a call it admitted), withdrawals, target
//     deaths, crashes, control, transitions. While the circuit is open the
//     caller answers itself with the rejection the Cell publishes, and sends
//     nothing.
//
// # Who answers a call
//
// Every call gets exactly one answer, from whoever settles it first (a
// Call carries its own reply channel and settles once):
//
//   - the caller itself: ErrOpen or ErrOverloaded before anything is sent;
//     context.Canceled when its context ends (Withdraw); ErrTimeout from its
//     backstop at the deadline plus ReplyGrace, should the breaker be too
//     busy to answer in time (backstop.go);
//   - a hot key's worker (or an actor target's caller), with a quiet
//     success (route 1, Call.Finish);
//   - the breaker, with the target's answer or ErrTimeout, ErrTargetDown,
//     ... (route 2 and 3; breaker.end is where every call in its table ends);
//   - the supervisor, with ErrBreakerRestarted for the call whose message a
//     crashing breaker was handling (internal/supervisor/strategy.go);
//   - the key's Mailbox, once the key is gone (unregistered, shut down,
//     forgotten), with the reason.
//
// # The breaker
//
// A breaker owns a state.Circuit, the table of the calls in flight it
// admitted (a heap by deadline, with one tick at the earliest), the recovery
// timer and the idle check. It never blocks: a call it forwards goes to the
// task package (a pool worker for a function target, an Ask for an actor
// target, sent from a worker if the target might block its sender) and its
// task.Completion comes back as a message. The Mailbox belongs to the key
// and outlives crash-restarts, the fresh breaker the supervisor spawns when
// protoactor gives up on one that crashes too often, and passivation: a
// call is never lost and never sent twice. A crash hands the calls in
// flight to the next breaker (Cell.orphan and adopt): they keep their
// deadlines, and their targets' answers still reach their callers, counting
// for nothing (a stale generation).
//
// A call, once answered from its target's outcome, is referred to by
// nothing but its caller and is reused (Caller's pool).
package actor
