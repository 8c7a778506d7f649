package dashboard

import (
	"context"
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

// settle is err, an answer about key, unless it is an ErrShutdown and the
// registry, running on, no longer has key: then the key was unregistered
// while asked, and it is tripwire.ErrUnknownKey. (An ErrShutdown of a key
// still there stays: a WithCrash func may answer one, or the key was
// registered again meanwhile.)
func settle(reg registry, key string, err error) error {
	if !errors.Is(err, tripwire.ErrShutdown) {
		return err
	}
	if _, serr := reg.State(key); errors.Is(serr, tripwire.ErrUnknownKey) {
		return fmt.Errorf("%w: %q was unregistered while its breaker was asked", tripwire.ErrUnknownKey, key)
	}
	return err
}

// snapshot asks key's breaker, as settle reads its answer.
func snapshot(ctx context.Context, reg registry, key string) (tripwire.Snapshot, error) {
	s, err := reg.Snapshot(ctx, key)
	return s, settle(reg, key, err)
}
