package tripwiretest

import "errors"

var (
	// ErrInvalid: an argument out of range, such as a negative count or
	// duration, or a probability outside [0, 1].
	ErrInvalid = errors.New("tripwiretest: invalid argument")
	// ErrInjected: the failure a script injected (FailNext, FailRate).
	ErrInjected = errors.New("tripwiretest: injected fault")
	// ErrDown: a function target whose script died (Die) answers with an
	// error wrapping ErrDown, as does an actor target for the calls it
	// answers while it stops.
	ErrDown = errors.New("tripwiretest: target down")
)
