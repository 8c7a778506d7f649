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
// every admitted call to a worker (the data plane) and replies to the caller
// when the outcome comes back. After Threshold consecutive failures the
// breaker opens and callers get ErrOpen at once, without a message to the
// breaker; after OpenTimeout it admits exactly one probe. A breaker that
// crashes is restarted closed with zero failures under the same key, and
// callers reach it without doing anything.
//
// Every call gets exactly one answer, no later than its deadline plus a small
// grace, whatever happens to the target, the worker or the breaker.
package tripwire
