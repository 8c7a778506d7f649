package tripwire

import "github.com/tripwire-go/tripwire/internal/errs"

// Sentinel errors, for errors.Is. A target's own error is returned unchanged.
var (
	// ErrOpen: the circuit is open (or its half-open probe is in flight);
	// the target was not called. The error is a *state.OpenError, which
	// errors.As gives with the key, when a probe is due and why it opened.
	ErrOpen = errs.ErrOpen
	// ErrUnknownKey: no breaker is registered under the key.
	ErrUnknownKey = errs.ErrUnknownKey
	// ErrDuplicateKey: Register of a key that is already registered.
	ErrDuplicateKey = errs.ErrDuplicateKey
	// ErrInvalidKey: empty, over 256 bytes, invalid UTF-8 or with control characters.
	ErrInvalidKey = errs.ErrInvalidKey
	// ErrInvalidTarget: a nil target, PID or function, or a PID of the registry itself.
	ErrInvalidTarget = errs.ErrInvalidTarget
	// ErrInvalidSettings: a negative threshold or duration.
	ErrInvalidSettings = errs.ErrInvalidSettings
	// ErrInvalidOption: a nil option or an option given a nil value, or a
	// method of a nil *Registry or of one that Start did not make.
	ErrInvalidOption = errs.ErrInvalidOption
	// ErrInvalidMessage: a nil message to an actor target.
	ErrInvalidMessage = errs.ErrInvalidMessage
	// ErrNotSerializable: a message to a target on another node (a remote
	// PID or a cluster grain) that is not a proto.Message. protoactor would
	// drop it and the caller would wait for its deadline; Call refuses it at
	// once, and it counts neither way.
	ErrNotSerializable = errs.ErrNotSerializable
	// ErrNilContext: a nil context.Context or actor context.
	ErrNilContext = errs.ErrNilContext
	// ErrTimeout: the call's deadline passed first. It also matches
	// context.DeadlineExceeded.
	ErrTimeout = errs.ErrTimeout
	// ErrTargetDown: the actor target is dead (protoactor's dead-letter answer).
	ErrTargetDown = errs.ErrTargetDown
	// ErrTargetPanic: the function target panicked; the panic value is in the message.
	ErrTargetPanic = errs.ErrTargetPanic
	// ErrBreakerRestarted: the breaker crashed while the call was in its hands.
	ErrBreakerRestarted = errs.ErrBreakerRestarted
	// ErrShutdown: the registry is shut down, or the key was unregistered
	// while the call was in flight.
	ErrShutdown = errs.ErrShutdown
	// ErrUnexpectedReply: a Handle's call got a value of another type than
	// its Resp from an actor target.
	ErrUnexpectedReply = errs.ErrUnexpectedReply
	// ErrOverloaded: the key already has Settings.MaxInFlight calls in
	// flight; the call was not queued and counts neither way.
	ErrOverloaded = errs.ErrOverloaded
	// ErrTooManyKeys: a new key would pass WithMaxKeys and no key can be
	// forgotten to make room; nothing was created or changed.
	ErrTooManyKeys = errs.ErrTooManyKeys
	// ErrFactory: the factory that was to make the key failed: it returned
	// an error (wrapped too) or panicked (the value is in the message);
	// nothing was created, and the next call runs it again.
	ErrFactory = errs.ErrFactory
)
