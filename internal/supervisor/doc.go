// Package supervisor is the parent actor of every breaker of a registry. It
// spawns breakers, restarts a crashed one closed with zero failures (the
// caller whose message crashed it gets ErrBreakerRestarted), and when
// protoactor gives up on a breaker that crashes too often it starts a fresh
// one under a new actor name and points the key at it: a key never disappears
// because its breaker crashed. It is the only writer of the registry.
package supervisor
