package soak

import "errors"

var (
	// ErrInvalidConfig: a Config field out of range (see Config).
	ErrInvalidConfig = errors.New("soak: invalid config")
	// ErrNilContext: Run was given a nil context.
	ErrNilContext = errors.New("soak: nil context")
	// ErrUnknownAnswer: ParseAnswer was given a name no Answer has.
	ErrUnknownAnswer = errors.New("soak: unknown outcome")
	// ErrSetup: the run could not be set up (the registry did not start, a
	// key could not be registered, an actor target could not be spawned).
	ErrSetup = errors.New("soak: setup failed")
	// ErrRunOver: Live.Crash was called once the run's load was over.
	ErrRunOver = errors.New("soak: the run's load is over")
)
