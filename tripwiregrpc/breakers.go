package tripwiregrpc

import (
	"context"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/adapter"
)

// target runs a call; a message of any other type is refused with
// tripwire.ErrInvalidMessage before it runs.
var target = tripwire.Func(func(ctx context.Context, c *call) (*call, error) { return c.run(ctx) })

// breakers is the factory of the adapter's keys.
func breakers(settings func(string) (tripwire.Settings, error)) tripwire.Factory {
	return adapter.Breakers("tripwiregrpc", target, verdictOf, DefaultIdleTimeout, settings)
}
