// Package tripwire is a supervised circuit-breaker registry on the
// protoactor-go actor runtime, a port of the Elixir library Tripwire.
//
// A caller addresses a protected dependency by key:
//
//	reg, _ := tripwire.Start(nil)
//	defer reg.Shutdown(context.Background())
//	_ = reg.Register("billing", tripwire.FuncTarget(charge), tripwire.Settings{Threshold: 3})
//	v, err := reg.Call(ctx, "billing", req)
//	if errors.Is(err, tripwire.ErrOpen) { ... }
//
// Each key has a breaker actor (the control plane) that never blocks: it hands
// every admitted call to a worker (the data plane) and answers the caller
// when the outcome comes back. After Threshold consecutive failures the
// breaker opens and callers get ErrOpen at once, without a message to the
// breaker; after OpenTimeout it admits a probe.
//
// # Calls
//
// [Registry.Call] sends a message to a key's [Target] — a function
// ([FuncTarget]), an actor ([ActorTarget]), either behind a message check
// ([Checked]) — and returns its answer; [CallAs] converts it. From inside an
// actor, [Registry.Request] answers with a [Reply] message instead of
// waiting. Every call gets exactly one answer, no later than its deadline plus
// [ReplyGrace], whatever the target, the worker or the breaker does. With
// [WithFactory], a call to an unknown key creates its breaker first, exactly
// once.
//
// # Settings and policies
//
// [Settings] are the rules of one key; their zero value means the defaults
// (five consecutive failures, 30 s open, one probe, 5 s per call). A [Window]
// trips on a failure rate instead; SlowCall, [Backoff], HalfOpenProbes,
// MaxInFlight (a bulkhead), Classify (a [Verdict] per result) and
// IdleTimeout refine them. [Registry.ForceOpen], [Registry.ForceClose],
// [Registry.Reset] and [Registry.Update] move a circuit by hand.
//
// # Errors
//
// Every error is a sentinel for errors.Is: a rejection is an [*OpenError]
// matching [ErrOpen]; [ErrOverloaded], [ErrTimeout], [ErrTargetDown],
// [ErrTargetPanic], [ErrBreakerRestarted] and [ErrShutdown] say what became
// of a call; bad input ([ErrInvalidKey], [ErrInvalidTarget],
// [ErrInvalidSettings], [ErrInvalidMessage], ...) changes nothing and calls
// no target. A target's own error is returned unchanged.
//
// # Observability
//
// Every state change is one [Transition]: a log line ([WithLogger]), an
// event ([Registry.Subscribe], and the actor system's EventStream), a metric
// ([WithMeterProvider]) and a span ([WithTracerProvider]). Each is off until
// wired, and then costs the call path nothing it does not need.
//
// # Supervision
//
// The breakers of a registry are children of one supervisor actor. A
// crashed breaker restarts closed with zero failures under the same key; the
// calls it had in flight carry over to it and still get their targets'
// answers. One that crashes too often is replaced by a fresh breaker on the
// same mailbox, so a key never disappears and nothing queued for it is lost.
// [Registry.Crash] makes a breaker panic, for resilience tests; the package
// github.com/tripwire-go/tripwire/test/chaos makes targets misbehave on cue.
package tripwire
