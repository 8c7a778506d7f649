package observe

import (
	"context"
	"errors"
	"fmt"

	"github.com/tripwire-go/tripwire/internal/errs"
)

// Kind is the fine class of a call's answer: what its caller got. Label
// coarsens it for the metrics; the demo, the soak and the dashboard count
// answers by it.
type Kind uint8

// The kinds of answer, in the order KindOf tests for them.
const (
	KindOK         Kind = iota // a value
	KindOpen                   // ErrOpen: the circuit refused the call
	KindOverloaded             // ErrOverloaded: too many calls in flight
	KindTimeout                // ErrTimeout: Tripwire ended the call at its deadline
	KindCanceled               // context.Canceled: the caller withdrew
	KindDeadline               // the target's own context.DeadlineExceeded: it gave up at the deadline
	KindPanic                  // ErrTargetPanic
	KindTargetDown             // ErrTargetDown: the actor target is gone
	KindRestarted              // ErrBreakerRestarted
	KindShutdown               // ErrShutdown
	KindFailure                // any other error: the target's own failure, or a call Tripwire could not make
	NumKinds                   // the number of kinds, not one of them
)

var kindNames = [NumKinds]string{"ok", "open", "overloaded", "timeout", "canceled", "deadline",
	"panic", "target_down", "restarted", "shutdown", "failure"}

func (k Kind) String() string {
	if k >= NumKinds {
		return fmt.Sprintf("kind(%d)", uint8(k))
	}
	return kindNames[k]
}

// KindOf is the kind of answer err is: the first kind, in the order they are
// declared, whose error err wraps.
func KindOf(err error) Kind {
	switch {
	case err == nil:
		return KindOK
	case errors.Is(err, errs.ErrOpen):
		return KindOpen
	case errors.Is(err, errs.ErrOverloaded):
		return KindOverloaded
	case errors.Is(err, errs.ErrTimeout):
		return KindTimeout
	case errors.Is(err, context.Canceled):
		return KindCanceled
	case errors.Is(err, context.DeadlineExceeded):
		return KindDeadline
	case errors.Is(err, errs.ErrTargetPanic):
		return KindPanic
	case errors.Is(err, errs.ErrTargetDown):
		return KindTargetDown
	case errors.Is(err, errs.ErrBreakerRestarted):
		return KindRestarted
	case errors.Is(err, errs.ErrShutdown):
		return KindShutdown
	}
	return KindFailure
}

// Label is the outcome label of an answer of kind k: a rejection (open,
// overloaded), a timeout, a withdrawal (canceled), a success, or else a
// failure (a target's own deadline error is the target failing, not
// Tripwire's timeout).
func (k Kind) Label() Label {
	switch k {
	case KindOK:
		return Success
	case KindOpen, KindOverloaded:
		return Rejected
	case KindTimeout:
		return Timeout
	case KindCanceled:
		return Canceled
	}
	return Failure
}
