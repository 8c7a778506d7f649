package registry

import (
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	tactor "github.com/tripwire-go/tripwire/actor"
)

// Entry is one registered key.
type Entry struct {
	Key    string
	Config *tactor.Config
	// Mailbox is the key's: every call, outcome and request for the key is
	// posted to it, whichever breaker serves the key (see tactor.Mailbox).
	Mailbox *tactor.Mailbox
	pid     atomic.Pointer[actor.PID]
}

// NewEntry returns an entry for cfg with a mailbox and no breaker yet.
func NewEntry(cfg *tactor.Config) *Entry {
	return &Entry{Key: cfg.Key, Config: cfg, Mailbox: tactor.NewMailbox()}
}

// Cell is the key's published breaker state.
func (e *Entry) Cell() *tactor.Cell { return e.Config.Cell }

// PID is the breaker actor serving the key now (or last, if it is
// passivated); only the supervisor uses it.
func (e *Entry) PID() *actor.PID { return e.pid.Load() }

// Bind records the breaker actor serving the key.
func (e *Entry) Bind(pid *actor.PID) { e.pid.Store(pid) }
