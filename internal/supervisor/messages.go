package supervisor

import (
	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/internal/registry"
)

// Register is sent by the registry API to add a key; Reply gets nil or
// ErrDuplicateKey.
type Register struct {
	Entry *registry.Entry
	Reply chan error
}

// Unregister is sent by the registry API to remove a key; Reply gets nil once
// the key's breaker has stopped and answered its calls, or ErrUnknownKey.
type Unregister struct {
	Key   string
	Reply chan error
}

// Wake is sent for a passivated key when something is posted to its
// mailbox (tactor.Shared.Wake): the key gets a breaker again, which takes
// what waited.
type Wake struct{ Config *tactor.Config }

// Shutdown stops every breaker for good; Reply gets nil once all have
// stopped. Registrations from then on get ErrShutdown.
type Shutdown struct{ Reply chan error }

// stopped is a breaker's report, from its last turn, that it has stopped
// for good.
type stopped struct{ id string }
