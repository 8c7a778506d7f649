package dashboard

import (
	"context"

	"github.com/tripwire-go/tripwire"
)

// registry is what the dashboard uses of a *tripwire.Registry; the tests
// count its asks through it.
type registry interface {
	Snapshot(key string) (tripwire.Snapshot, error)
	State(key string) (tripwire.State, error)
	Snapshots(ctx context.Context, f tripwire.Filter, fn func(tripwire.Snapshot) bool) error
	Subscribe(fn func(tripwire.Transition)) (unsubscribe func())
	ForceOpen(key string) error
	ForceClose(key string) error
	Reset(key string) error
	ProbeNow(key string) error
}
