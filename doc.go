// Package tripwire is a supervised circuit-breaker registry on the
// protoactor-go actor runtime, a port of the Elixir library Tripwire.
//
// A caller addresses a protected dependency by key:
//
//	reg, err := tripwire.Start(tripwire.WithLogger(zl)) // no WithActorSystem: one is made
//	defer reg.Shutdown(ctx)
//	err = reg.Register(ctx, "billing", tripwire.Func(charge), tripwire.Settings{Threshold: 3})
//	billing := tripwire.Key[*Invoice, Receipt](reg, "billing")
//	rcpt, err := billing.Call(ctx, inv)
//	if errors.Is(err, tripwire.ErrOpen) { ... }
//
// Each key has a breaker actor (the control plane) that owns the circuit and
// never blocks, and supervised workers (the data plane) that call the
// target. A call takes one of three routes: on a closed, hot key the caller
// admits it against the state the breaker publishes, and a worker runs it
// and answers the caller itself; on a closed, cold key the worker reports
// the outcome to the breaker's turn, which answers; everything else —
// failures, probes, deadlines, transitions — goes through the breaker's
// turns. While the circuit is open (after Threshold consecutive failures, by
// default) callers get ErrOpen at once, without a message; after OpenTimeout
// probes go through. A crashed breaker restarts closed under the same key.
//
// # Calls
//
// [Key] gives a key's typed door, a [Handle]: its Call takes a Req and
// answers a Resp, so a wrong type does not compile. [Registry.Call] is the
// untyped door, for any message. Either sends the message to the key's
// [Target] — a function ([Func]), an actor ([ActorTarget]), either behind a
// message check ([Checked]) — and returns its answer. A Func refuses a
// message of another type with [ErrInvalidMessage], and a Handle whose Resp
// it can never answer with [ErrUnexpectedReply], before it runs. From inside
// an actor, [Registry.Request] answers with a [Reply] message instead of
// waiting. Every call gets exactly one answer, no later than its deadline
// plus [ReplyGrace], whatever the target, the worker or the breaker does.
// With [WithFactory], a call to an unknown key creates its breaker first,
// exactly once.
//
// # Contexts
//
// Every method that may wait takes a context first: [Registry.Register] and
// [Registry.Unregister] wait for the registry's supervisor, and
// [Registry.Snapshot], [Registry.ForceOpen], [Registry.ForceClose],
// [Registry.Reset], [Registry.ProbeNow] and [Registry.Update] wait for the
// key's breaker until ctx ends, at most 5 s if ctx has no deadline (then
// [ErrTimeout]). [Registry.State], [Registry.Keys], [Registry.Subscribe] and
// [Registry.Request] never wait.
//
// # Settings and policies
//
// [Settings] are the rules of one key; their zero value means the defaults
// (five consecutive failures, 30 s open, one probe, 5 s per call). A
// [state.Window] trips on a failure rate instead; SlowCall,
// [state.Backoff], HalfOpenProbes, MaxInFlight (a bulkhead), Classify (a
// [state.Verdict] per result) and IdleTimeout refine them.
// [Registry.ForceOpen], [Registry.ForceClose], [Registry.Reset] and
// [Registry.Update] move a circuit by hand. The vocabulary — states,
// reasons, transitions, statistics, policies — is package
// github.com/tripwire-go/tripwire/state, the one public core beside this
// one.
//
// # Errors
//
// Every error is a sentinel for errors.Is: a rejection is a
// [*state.OpenError] matching [ErrOpen]; [ErrOverloaded], [ErrTimeout],
// [ErrTargetDown], [ErrTargetPanic], [ErrBreakerRestarted] and [ErrShutdown]
// say what became of a call; bad input ([ErrInvalidKey], [ErrInvalidTarget],
// [ErrInvalidSettings], [ErrInvalidMessage], ...) changes nothing and calls
// no target. A target's own error is returned unchanged.
//
// # Observability
//
// Every state change is one [state.Transition]: a log line ([WithLogger]),
// an event ([Registry.Subscribe], and the actor system's EventStream), a
// metric ([WithMeterProvider]) and a span ([WithTracerProvider]). Each is off
// until wired, and then costs the call path nothing it does not need.
//
// # Supervision
//
// The breakers of a registry are owned by one supervisor actor. A crashed
// breaker restarts closed with zero failures under the same key; the calls
// it had in flight carry over to it and still get their targets' answers.
// One that crashes too often is replaced by a fresh breaker on the same
// mailbox, so a key never disappears and nothing queued for it is lost. The
// package github.com/tripwire-go/tripwire/tripwiretest crashes breakers
// (Crash, CrashEvery) and makes targets misbehave on cue, for resilience
// tests.
//
// Across machines — the deadline a call carries in a message header, and
// targets that shed calls whose callers gave up — is package
// github.com/tripwire-go/tripwire/remoting.
package tripwire
