package tripwiregrpc

import (
	"context"
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tripwire-go/tripwire"
)

// Sentinel errors, for errors.Is. The call is not sent when the
// interceptor returns one of them; their status code is Internal.
var (
	// ErrKey: the call has no breaker key. The key func failed (its error
	// is wrapped too), or gave a key the registry refuses
	// (tripwire.ErrInvalidKey is then in the chain too).
	ErrKey = errors.New("tripwiregrpc: no breaker key for the call")
	// ErrInvalidCall: a nil context, connection or invoker, or a reply
	// that is neither a protobuf message nor a non-nil pointer.
	ErrInvalidCall = errors.New("tripwiregrpc: invalid call")
)

// statusError is one of Tripwire's errors, or this package's, with the
// gRPC status a caller checking status.Code expects; errors.Is and
// errors.As see the error it wraps.
type statusError struct {
	err  error
	code codes.Code
}

func (e *statusError) Error() string              { return e.err.Error() }
func (e *statusError) Unwrap() error              { return e.err }
func (e *statusError) GRPCStatus() *status.Status { return status.New(e.code, e.err.Error()) }

// withStatus gives err, an error that did not come from the server, the
// status code its caller would expect from gRPC itself. An error that has
// a status already — one the server, or another interceptor, returned —
// is left as it is.
func withStatus(err error) error {
	var code codes.Code
	switch {
	case errors.Is(err, tripwire.ErrOpen), errors.Is(err, tripwire.ErrShutdown),
		errors.Is(err, tripwire.ErrBreakerRestarted):
		code = codes.Unavailable
	case errors.Is(err, tripwire.ErrOverloaded), errors.Is(err, tripwire.ErrTooManyKeys):
		code = codes.ResourceExhausted
	case errors.Is(err, tripwire.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		code = codes.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		code = codes.Canceled
	case hasStatus(err):
		return err
	default:
		code = codes.Internal
	}
	return &statusError{err: err, code: code}
}

func hasStatus(err error) bool {
	var s interface{ GRPCStatus() *status.Status }
	return errors.As(err, &s)
}
