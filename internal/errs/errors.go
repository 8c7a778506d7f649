package errs

import (
	"context"
	"errors"

	"github.com/tripwire-go/tripwire/state"
)

// The errors the state package defines: the circuit's own vocabulary.
var (
	ErrOpen            = state.ErrOpen
	ErrSlowCall        = state.ErrSlowCall
	ErrInvalidSettings = state.ErrInvalidSettings
)

// OpenError is state's.
type OpenError = state.OpenError

// Sentinel errors. Compare with errors.Is.
var (
	ErrUnknownKey       = errors.New("tripwire: unknown key")
	ErrDuplicateKey     = errors.New("tripwire: duplicate key")
	ErrInvalidKey       = errors.New("tripwire: invalid key")
	ErrInvalidTarget    = errors.New("tripwire: invalid target")
	ErrInvalidOption    = errors.New("tripwire: invalid option")
	ErrInvalidMessage   = errors.New("tripwire: invalid message")
	ErrNilContext       = errors.New("tripwire: nil context")
	ErrTargetDown       = errors.New("tripwire: target down")
	ErrTargetPanic      = errors.New("tripwire: target panicked")
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
