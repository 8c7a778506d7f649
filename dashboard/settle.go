package dashboard

import (
	"errors"
	"fmt"

	"github.com/tripwire-go/tripwire"
)

// A breaker's ErrShutdown does not say the registry shut down: a key
// unregistered while its breaker was asked (Snapshot, a control action)
// answers it too. State asks no breaker: it answers ErrShutdown once the
// registry has shut down, and only then, whatever the key (ErrUnknownKey
// for a key it does not have); TestStateTellsShutdownFromUnregister pins
// that.

// shutDown reports whether reg has shut down.
func shutDown(reg registry) bool {
	_, err := reg.State(probeKey)
	return errors.Is(err, tripwire.ErrShutdown)
}

// probeKey is the key shutDown asks the state of: any valid key will do,
// registered or not.
const probeKey = "tripwire-dashboard"

// settle is err, an answer about key, unless it is an ErrShutdown of a key
// unregistered while asked, while the registry runs on: then it is
// tripwire.ErrUnknownKey.
func settle(reg registry, key string, err error) error {
	if !errors.Is(err, tripwire.ErrShutdown) || shutDown(reg) {
		return err
	}
	return fmt.Errorf("%w: %q was unregistered while its breaker was asked", tripwire.ErrUnknownKey, key)
}

// snapshot asks key's breaker, as settle reads its answer.
func snapshot(reg registry, key string) (tripwire.Snapshot, error) {
	s, err := reg.Snapshot(key)
	return s, settle(reg, key, err)
}
