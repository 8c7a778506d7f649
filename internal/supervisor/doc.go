// Package supervisor is the owner of every breaker of a registry
// (internal/: no compatibility promise). Breakers are root actors under a
// guardian that runs its strategy. It spawns them on their key's mailbox,
// restarts a crashed one closed with zero failures (the caller whose message
// crashed it gets ErrBreakerRestarted: the one answer it gives), and when
// protoactor gives up on a breaker that crashes too often it starts a fresh
// one on the same mailbox: a key never disappears because its breaker
// crashed. It wakes a passivated key, forgets one to make room
// (WithMaxKeys), and is the only writer of the key table.
package supervisor
