package registry

import (
	"sync/atomic"

	tactor "github.com/tripwire-go/tripwire/actor"
	"github.com/tripwire-go/tripwire/internal/observe"
)

// Entry is one registered key.
type Entry struct {
	Key    string
	Config *tactor.Config
	// Meter records the key's calls; nil when no meter provider is set.
	Meter *observe.KeyMeter
	bind  atomic.Pointer[Binding]
}

// NewEntry returns an entry for cfg with no breaker yet.
func NewEntry(cfg *tactor.Config) *Entry { return &Entry{Key: cfg.Key, Config: cfg} }

// Cell is the key's published breaker state.
func (e *Entry) Cell() *tactor.Cell { return e.Config.Cell }

// Binding is the breaker serving the key now.
func (e *Entry) Binding() *Binding { return e.bind.Load() }

// Bind points the key at a new breaker.
func (e *Entry) Bind(b *Binding) { e.bind.Store(b) }
