package tripwire

import (
	"fmt"
	"time"
)

// Default settings; a zero field in Settings takes its default.
const (
	DefaultThreshold   = 5
	DefaultOpenTimeout = 30 * time.Second
	DefaultCallTimeout = 5 * time.Second
)

// Settings are the rules of one key's breaker. The zero value is valid and
// means the defaults; a negative field is ErrInvalidSettings.
type Settings struct {
	// Threshold is the number of consecutive failures that opens the
	// circuit (default 5).
	Threshold int
	// OpenTimeout is how long the circuit stays open before it admits a
	// probe (default 30s).
	OpenTimeout time.Duration
	// CallTimeout bounds every call; the effective deadline is the earlier
	// of the context's and now+CallTimeout (default 5s).
	CallTimeout time.Duration
	// IsFailure, if set, decides whether a call's result counts as a
	// failure. By default every non-nil error does, including an error
	// value replied by an actor target. It runs on the worker, never inside
	// the breaker; if it panics the call counts as a failure.
	IsFailure func(value any, err error) bool
}

func (s Settings) withDefaults() (Settings, error) {
	switch {
	case s.Threshold < 0:
		return s, fmt.Errorf("%w: Threshold %d is negative", ErrInvalidSettings, s.Threshold)
	case s.OpenTimeout < 0:
		return s, fmt.Errorf("%w: OpenTimeout %v is negative", ErrInvalidSettings, s.OpenTimeout)
	case s.CallTimeout < 0:
		return s, fmt.Errorf("%w: CallTimeout %v is negative", ErrInvalidSettings, s.CallTimeout)
	}
	if s.Threshold == 0 {
		s.Threshold = DefaultThreshold
	}
	if s.OpenTimeout == 0 {
		s.OpenTimeout = DefaultOpenTimeout
	}
	if s.CallTimeout == 0 {
		s.CallTimeout = DefaultCallTimeout
	}
	return s, nil
}
