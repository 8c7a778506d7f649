package errs

import (
	"context"
	"errors"
)

// Sentinel errors. Compare with errors.Is.
var (
	ErrOpen             = errors.New("tripwire: circuit open")
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
	ErrBreakerRestarted = errors.New("tripwire: breaker restarted")
	ErrShutdown         = errors.New("tripwire: registry shut down")
	ErrUnexpectedReply  = errors.New("tripwire: unexpected reply type")
	// ErrTimeout also matches context.DeadlineExceeded.
	ErrTimeout error = timeoutError{}
)

type timeoutError struct{}

func (timeoutError) Error() string { return "tripwire: call timed out" }

// Is makes errors.Is(ErrTimeout, context.DeadlineExceeded) hold.
func (timeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// Timeout reports true, like context.DeadlineExceeded.
func (timeoutError) Timeout() bool { return true }
