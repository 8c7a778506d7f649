package soak

import (
	"context"
	"errors"
	"fmt"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/test/chaos"
)

// Answer is the class of one call's answer.
type Answer int

// The outcomes, in the order reports list them.
const (
	OK         Answer = iota // the target's value
	Injected                 // chaos.ErrInjected
	Down                     // chaos.ErrDown (a dead function target, or an actor answering while it stops)
	Open                     // tripwire.ErrOpen
	Timeout                  // tripwire.ErrTimeout, or the target's own context.DeadlineExceeded
	Panicked                 // tripwire.ErrTargetPanic
	TargetDown               // tripwire.ErrTargetDown (a stopped actor target)
	Restarted                // tripwire.ErrBreakerRestarted
	Canceled                 // context.Canceled: the caller withdrew
	ShutDown                 // tripwire.ErrShutdown: never expected while callers run
	Other                    // anything else: a bug
	NumAnswers               // the number of outcomes, not one of them
)

var outcomeNames = [NumAnswers]string{"ok", "injected", "down", "open", "timeout", "panic", "target_down", "restarted", "canceled", "shutdown", "other"}

func (o Answer) String() string {
	if o < 0 || o >= NumAnswers {
		return fmt.Sprintf("outcome(%d)", int(o))
	}
	return outcomeNames[o]
}

// ParseAnswer returns the outcome String names, or an error wrapping
// ErrUnknownAnswer.
func ParseAnswer(name string) (Answer, error) {
	for i, n := range outcomeNames {
		if n == name {
			return Answer(i), nil
		}
	}
	return 0, fmt.Errorf("%w: %q (one of %v)", ErrUnknownAnswer, name, outcomeNames)
}

// Classify returns the outcome of a call that answered err.
func Classify(err error) Answer {
	switch {
	case err == nil:
		return OK
	case errors.Is(err, chaos.ErrInjected):
		return Injected
	case errors.Is(err, chaos.ErrDown):
		return Down
	case errors.Is(err, tripwire.ErrOpen):
		return Open
	case errors.Is(err, context.DeadlineExceeded): // ErrTimeout matches it too
		return Timeout
	case errors.Is(err, tripwire.ErrTargetPanic):
		return Panicked
	case errors.Is(err, tripwire.ErrTargetDown):
		return TargetDown
	case errors.Is(err, tripwire.ErrBreakerRestarted):
		return Restarted
	case errors.Is(err, context.Canceled):
		return Canceled
	case errors.Is(err, tripwire.ErrShutdown):
		return ShutDown
	}
	return Other
}
