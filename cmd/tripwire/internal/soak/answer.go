package soak

import (
	"errors"
	"fmt"

	"github.com/tripwire-go/tripwire/internal/observe"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// Answer is the class of one call's answer.
type Answer int

// The outcomes, in the order reports list them.
const (
	OK         Answer = iota // the target's value
	Injected                 // tripwiretest.ErrInjected
	Down                     // tripwiretest.ErrDown (a dead function target, or an actor answering while it stops)
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

// Classify returns the outcome of a call that answered err: chaos's own
// failures first, then the kind Tripwire's classification gives it.
func Classify(err error) Answer {
	switch {
	case errors.Is(err, tripwiretest.ErrInjected):
		return Injected
	case errors.Is(err, tripwiretest.ErrDown):
		return Down
	}
	return byKind[observe.KindOf(err)]
}

// byKind is the outcome of each kind of answer. A timeout is one whoever
// noticed it, Tripwire or the target; overload and failures the soak's
// targets cannot cause are bugs.
var byKind = [observe.NumKinds]Answer{
	observe.KindOK: OK, observe.KindOpen: Open, observe.KindOverloaded: Other,
	observe.KindTimeout: Timeout, observe.KindCanceled: Canceled, observe.KindDeadline: Timeout,
	observe.KindPanic: Panicked, observe.KindTargetDown: TargetDown, observe.KindRestarted: Restarted,
	observe.KindShutdown: ShutDown, observe.KindFailure: Other,
}

// Kind is the kind of answer o is, as a program that does not know chaos
// counts it: an injected failure and a dead target's ErrDown are the
// target's own failures, and so is Other.
func (o Answer) Kind() observe.Kind {
	switch o {
	case OK:
		return observe.KindOK
	case Open:
		return observe.KindOpen
	case Timeout:
		return observe.KindTimeout
	case Panicked:
		return observe.KindPanic
	case TargetDown:
		return observe.KindTargetDown
	case Restarted:
		return observe.KindRestarted
	case Canceled:
		return observe.KindCanceled
	case ShutDown:
		return observe.KindShutdown
	}
	return observe.KindFailure
}
