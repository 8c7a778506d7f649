package tripwirehttp

import (
	"context"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/adapter"
)

// target runs an exchange's round trip; a message of any other type is
// refused with tripwire.ErrInvalidMessage before it runs.
var target = tripwire.Func(func(ctx context.Context, x *exchange) (*exchange, error) { return x.run(ctx) })

// breakers is the factory of the adapter's keys.
func breakers(settings func(string) (tripwire.Settings, error)) tripwire.Factory {
	return adapter.Breakers("tripwirehttp", target, verdictOf, DefaultIdleTimeout, settings)
}
