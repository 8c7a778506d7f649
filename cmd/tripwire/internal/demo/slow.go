package demo

import (
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// slowLatency is how long a Slow dependency takes while it is down. With a
// SlowCall shorter than the call timeout, calls land halfway between the
// two: they succeed, late, and the breaker counts them as slow. Otherwise
// they take twice the call timeout (its default if unset) and time out.
func slowLatency(s tripwire.Settings) time.Duration {
	timeout := s.CallTimeout
	if timeout == 0 {
		timeout = state.DefaultCallTimeout
	}
	if s.SlowCall > 0 && s.SlowCall < timeout {
		return s.SlowCall + (timeout-s.SlowCall)/2
	}
	return 2 * timeout
}
