// Package actor is Tripwire's control plane — one breaker actor per key —
// and its call protocol (internal/: no compatibility promise).
//
// # The three routes of a call
//
// A call (Caller.Do) picks its route from what the key's Cell publishes:
//
//  1. Closed and hot: the caller admits the call against the published
//     generation (admitted.go) and hands it to a worker, which runs the
//     target and answers a quiet success itself, counting it on its
//     processor's shard (hotlane.go). An actor target's caller does the same.
//  2. Closed and cold: as 1, but the worker (or the ask's caller) posts the
//     outcome to the key's Mailbox, and the breaker's turn counts and answers.
//  3. Everything else goes through the breaker's turns: probes, a call posted
//     while the circuit moved, failures, deadlines, withdrawals, target
//     deaths, crashes, control, transitions. While the circuit is open the
//     caller answers itself with the published rejection and sends nothing.
//
// # Who answers a call
//
// A Call carries its own reply channel and settles once, by whoever is first:
//
//   - the caller: ErrOpen or ErrOverloaded before anything is sent; its
//     context's error (Withdraw); ErrTimeout from its backstop at the deadline
//     plus ReplyGrace should the breaker be too busy (backstop.go);
//   - a hot key's worker or actor target's caller, with a quiet success
//     (route 1, Call.Finish);
//   - the breaker, with the target's answer, ErrTimeout, ErrTargetDown, ...
//     (routes 2 and 3; breaker.end is where every call in its table ends);
//   - the supervisor, with ErrBreakerRestarted for the call a crashing breaker
//     was handling (internal/supervisor/strategy.go);
//   - the key's Mailbox, once the key is gone, with the reason.
//
// # The breaker
//
// A breaker owns a state.Circuit, the heap of the calls in flight it
// admitted (one tick at the earliest deadline), the recovery timer and the
// idle check. It never blocks: a forwarded call goes to the task package
// and its task.Completion comes back as a message. The key's Mailbox
// outlives its breakers (crash-restarts, passivation), so a call is never
// lost or sent twice; a crash hands the calls in flight to the next breaker
// (Cell.orphan, adopt), whose answers reach their callers, counting nowhere.
package actor
