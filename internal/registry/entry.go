package registry

import (
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
)

// Entry is one registered key: its Config (target, rules, cell, mailbox)
// and the breaker actor serving it now. It is one allocation, and all a
// passivated key keeps.
type Entry struct {
	tactor.Config
	pid atomic.Pointer[actor.PID]
}

// NewEntry returns an entry for key with an empty mailbox and no breaker yet.
func NewEntry(key string, target tactor.Callee, rules *tactor.Rules, shared *tactor.Shared) *Entry {
	e := &Entry{}
	e.Init(key, target, rules, shared)
	return e
}

// PID is the breaker actor serving the key now, or nil while the key has
// none (passivated); only the supervisor uses it.
func (e *Entry) PID() *actor.PID { return e.pid.Load() }

// Bind records the breaker actor serving the key (nil: none).
func (e *Entry) Bind(pid *actor.PID) { e.pid.Store(pid) }
