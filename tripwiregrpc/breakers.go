package tripwiregrpc

import (
	"context"
	"fmt"

	"github.com/tripwire-go/tripwire"
)

// target runs a call; a message of any other type is refused with
// tripwire.ErrInvalidMessage before it runs.
var target = tripwire.Func(func(ctx context.Context, c *call) (*call, error) { return c.run(ctx) })

// breakers is the factory of an interceptor's keys.
func breakers(settings func(string) (tripwire.Settings, error)) tripwire.Factory {
	return func(_ context.Context, key string) (tripwire.Target, tripwire.Settings, error) {
		s, err := settings(key)
		if err != nil {
			return nil, s, fmt.Errorf("tripwiregrpc: settings of %q: %w", key, err)
		}
		if err := checkSettings(s); err != nil {
			return nil, s, err
		}
		if s.IdleTimeout == 0 {
			s.IdleTimeout = DefaultIdleTimeout
		}
		s.Classify = verdictOf
		return target, s, nil
	}
}
