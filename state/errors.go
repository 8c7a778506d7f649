package state

import (
	"errors"
	"time"
)

// ErrInvalidSettings is the error of settings a circuit cannot take: every
// error Validate returns matches it with errors.Is. It is
// tripwire.ErrInvalidSettings.
var ErrInvalidSettings = errors.New("tripwire: invalid settings")

// ErrSlowCall is the Cause of an OpenError when a call slower than
// Settings.SlowCall opened the circuit; no call returns it.
var ErrSlowCall = errors.New("tripwire: slow call")

// ErrOpen is the error of a call the circuit refused; *OpenError matches it
// with errors.Is. The root package's ErrOpen is this error.
var ErrOpen error = &openSentinel{"tripwire: circuit open"}

// OpenError is the error of a call the circuit rejected: errors.Is(err,
// ErrOpen) holds for it, and errors.As gives the key and when a probe is
// due.
type OpenError struct {
	Key string
	// RetryAfter is how long the circuit was set to stay open when it
	// opened — an upper bound on the wait from any later moment; the wait
	// that is left is time.Until(RetryAt). Zero with a zero RetryAt means no
	// probe is scheduled: the circuit is forced open, or half-open with its
	// probes in flight.
	RetryAfter time.Duration
	RetryAt    time.Time
	// Cause is the failure that opened the circuit: the error of the call
	// that tripped it (tripwire.ErrTimeout, tripwire.ErrTargetDown,
	// ErrSlowCall for a success slower than SlowCall, or the target's own
	// error), nil when it was forced open. It is a field, not wrapped: a rejection is not the
	// failure, and errors.Is(rejection, context.DeadlineExceeded) is false.
	Cause error
}

func (e *OpenError) Error() string {
	if e.RetryAt.IsZero() {
		return "tripwire: circuit open: " + e.Key
	}
	return "tripwire: circuit open: " + e.Key + ", retry after " + e.RetryAfter.String()
}

// Is makes errors.Is(err, ErrOpen) hold.
func (e *OpenError) Is(target error) bool {
	_, ok := target.(*openSentinel) // ErrOpen is its only value
	return ok
}

// openSentinel is ErrOpen's type, which no other error has: OpenError.Is
// — on every open-path caller's errors.Is — checks the type alone, which
// costs a nanosecond less than comparing two interfaces.
type openSentinel struct{ msg string }

func (e *openSentinel) Error() string { return e.msg }
