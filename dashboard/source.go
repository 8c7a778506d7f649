package dashboard

import (
	"context"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// registry is what the dashboard uses of a *tripwire.Registry; the tests
// count its asks through it.
type registry interface {
	Snapshot(ctx context.Context, key string) (tripwire.Snapshot, error)
	State(key string) (state.State, error)
	Snapshots(ctx context.Context, f tripwire.Filter, fn func(tripwire.Snapshot) bool) error
	Subscribe(fn func(state.Transition)) (unsubscribe func())
	ForceOpen(ctx context.Context, key string) error
	ForceClose(ctx context.Context, key string) error
	Reset(ctx context.Context, key string) error
	ProbeNow(ctx context.Context, key string) error
}
