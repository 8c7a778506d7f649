package errs

import (
	"context"
	"errors"
	"time"
)

// ErrOpen is the error of a call the circuit refused; *OpenError matches it
// with errors.Is.
var ErrOpen error = &openSentinel{"tripwire: circuit open"}

// Sentinel errors. Compare with errors.Is.
var (
	ErrUnknownKey       = errors.New("tripwire: unknown key")
	ErrDuplicateKey     = errors.New("tripwire: duplicate key")
	ErrInvalidKey       = errors.New("tripwire: invalid key")
	ErrInvalidTarget    = errors.New("tripwire: invalid target")
	ErrInvalidSettings  = errors.New("tripwire: invalid settings")
	ErrInvalidOption    = errors.New("tripwire: invalid option")
	ErrInvalidMessage   = errors.New("tripwire: invalid message")
	ErrNilContext       = errors.New("tripwire: nil context")
	ErrTargetDown       = errors.New("tripwire: target down")
	ErrTargetPanic      = errors.New("tripwire: target panicked")
	ErrSlowCall         = errors.New("tripwire: slow call")
	ErrBreakerRestarted = errors.New("tripwire: breaker restarted")
	ErrShutdown         = errors.New("tripwire: registry shut down")
	ErrUnexpectedReply  = errors.New("tripwire: unexpected reply type")
	ErrNotSerializable  = errors.New("tripwire: message cannot cross the network: not a proto.Message")
	ErrTooManyKeys      = errors.New("tripwire: too many keys")
	ErrFactory          = errors.New("tripwire: factory") // "tripwire: factory for \"k\": ..."
	// ErrForgotten is what a forgotten key's mailbox refuses a call with:
	// the registry makes the key again and calls it (never returned).
	ErrForgotten = errors.New("tripwire: key forgotten")
	// ErrTimeout also matches context.DeadlineExceeded.
	ErrTimeout error = timeoutError{}
)

type timeoutError struct{}

func (timeoutError) Error() string { return "tripwire: call timed out" }

// Is makes errors.Is(ErrTimeout, context.DeadlineExceeded) hold.
func (timeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// Timeout reports true, like context.DeadlineExceeded.
func (timeoutError) Timeout() bool { return true }

// ErrOverloaded: the key already has Settings.MaxInFlight calls in flight.
var ErrOverloaded = errors.New("tripwire: too many calls in flight")

// OpenError is the error of a call the circuit rejected; errors.Is(err,
// ErrOpen) holds for it.
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
	// that tripped it (ErrTimeout, ErrTargetDown, ErrSlowCall for a success
	// slower than SlowCall, or the target's own error), nil when it was
	// forced open. It is a field, not wrapped: a rejection is not the
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
