// Package adapter holds what the client adapters (tripwirehttp,
// tripwiregrpc) share: how they make the breaker of a key on its first
// request.
package adapter

import (
	"context"
	"fmt"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// Breakers is the factory of an adapter's keys: each gets target, the
// settings settings gives it (checked by CheckSettings; IdleTimeout idle
// unless set) and classify as its classifier. pkg names the adapter in
// errors.
func Breakers(pkg string, target tripwire.Target, classify func(any, error) state.Verdict, idle time.Duration,
	settings func(string) (tripwire.Settings, error)) tripwire.Factory {
	return func(_ context.Context, key string) (tripwire.Target, tripwire.Settings, error) {
		s, err := settings(key)
		if err != nil {
			return nil, s, fmt.Errorf("%s: settings of %q: %w", pkg, key, err)
		}
		if err := CheckSettings(pkg, s); err != nil {
			return nil, s, err
		}
		if s.IdleTimeout == 0 {
			s.IdleTimeout = idle
		}
		s.Classify = classify
		return target, s, nil
	}
}

// CheckSettings refuses settings with a classifier of their own (an
// adapter's keys count what its WithClassifier says), and those that
// Register would refuse.
func CheckSettings(pkg string, s tripwire.Settings) error {
	if s.Classify != nil || s.IsFailure != nil {
		return fmt.Errorf("%w: Settings.Classify and IsFailure are %s's: use WithClassifier", tripwire.ErrInvalidSettings, pkg)
	}
	if err := s.Validate(); err != nil {
		return fmt.Errorf("%s: %w", pkg, err)
	}
	return nil
}
