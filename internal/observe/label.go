package observe

import (
	"context"
	"errors"

	"github.com/tripwire-go/tripwire/internal/errs"
)

// Label is how a call ended, as the tripwire.outcome attribute says it.
type Label uint8

// Call outcomes.
const (
	Success Label = iota
	Failure
	Timeout
	Rejected
	Canceled
	numLabels
)

var labelNames = [numLabels]string{"success", "failure", "timeout", "rejected", "canceled"}

func (o Label) String() string { return labelNames[o] }

// LabelOf is the outcome label of a call that returned err.
func LabelOf(err error) Label {
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
