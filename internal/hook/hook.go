// Package hook holds what the root package lends the module's other
// packages without exporting it: the root sets each function in its init.
// remoting builds targets whose asks carry the deadline header or not,
// tripwiretest crashes a breaker, and the tests count a registry's workers
// and make keys hot sooner (the actor package sets that one).
// Their arguments are the root's types (a *tripwire.Registry, a
// tripwire.Target), as any: this package cannot import the root.
package hook

import "context"

// The header modes a target can be given (see task.Header).
const (
	HeaderAlways = iota + 1
	HeaderNever
)

var (
	// WithHeader is target with its asks' header mode set (an actor
	// target; any other is returned as it is).
	WithHeader func(target any, mode int) any
	// Crash makes key's breaker in registry panic and returns once a
	// fresh breaker serves the key.
	Crash func(ctx context.Context, registry any, key string) error
	// Workers is the number of worker goroutines of registry's pool.
	Workers func(registry any) int
	// HotCalls sets the successes a second that make a key hot (the
	// actor package sets it), and returns what puts the default back.
	HotCalls func(n uint32) (restore func())
)
