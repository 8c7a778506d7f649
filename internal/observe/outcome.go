package observe

import (
	"context"
	"errors"

	"github.com/tripwire-go/tripwire/internal/errs"
)

// Outcome is how a call ended, as the tripwire.outcome attribute says it.
type Outcome uint8

// Call outcomes.
const (
	Success Outcome = iota
	Failure
	Timeout
	Rejected
	Canceled
	numOutcomes
)

var outcomeNames = [numOutcomes]string{"success", "failure", "timeout", "rejected", "canceled"}

func (o Outcome) String() string { return outcomeNames[o] }

// Classify maps a call's error to its outcome.
func Classify(err error) Outcome {
	switch {
	case err == nil:
		return Success
	case errors.Is(err, errs.ErrOpen), errors.Is(err, errs.ErrOverloaded):
		return Rejected
	case errors.Is(err, errs.ErrTimeout):
		return Timeout
	case errors.Is(err, context.Canceled):
		return Canceled
	default:
		return Failure
	}
}
