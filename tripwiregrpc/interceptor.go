package tripwiregrpc

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/adapter"
	"github.com/tripwire-go/tripwire/state"
)

// UnaryClientInterceptor returns an interceptor that sends each unary call
// through the breaker of its key on reg, making the breaker on the key's
// first call. A nil reg or option is tripwire.ErrInvalidOption.
//
// The interceptor returns the invoker's answer unchanged — the server's
// status error, or nil with the reply filled in — or, without sending the
// call, an error that matches the Tripwire error with errors.Is and has
// the status code a gRPC caller expects:
//
//   - tripwire.ErrOpen (an *state.OpenError): Unavailable — the circuit
//     is open;
//   - tripwire.ErrOverloaded: ResourceExhausted;
//   - tripwire.ErrTimeout, the call's deadline (the caller's, or the key's
//     CallTimeout) passed first: DeadlineExceeded; the call is cancelled
//     (gRPC's own timer for that deadline may end it first, with gRPC's
//     DeadlineExceeded status);
//   - context.Canceled, the caller's context: Canceled;
//   - tripwire.ErrShutdown, tripwire.ErrBreakerRestarted: Unavailable;
//   - ErrKey, ErrInvalidCall, invalid settings or the settings func's
//     error: Internal (an error with a status of its own keeps it).
func UnaryClientInterceptor(reg *tripwire.Registry, opts ...Option) (grpc.UnaryClientInterceptor, error) {
	if reg == nil {
		return nil, fmt.Errorf("%w: UnaryClientInterceptor with a nil Registry", tripwire.ErrInvalidOption)
	}
	applies := make([]func(*config) error, len(opts))
	for i, o := range opts {
		if o != nil {
			applies[i] = o.apply
		}
	}
	c, err := adapter.Build(KeyFunc(MethodKey), DefaultClassify, applies)
	if err != nil {
		return nil, err
	}
	i := &interceptor{reg: reg, key: c.Key, classify: c.Classify, factory: breakers(c.Settings)}
	return i.intercept, nil
}

type interceptor struct {
	reg      *tripwire.Registry
	key      KeyFunc
	classify func(error) state.Verdict
	factory  tripwire.Factory
}

func (i *interceptor) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	if ctx == nil || invoker == nil {
		return withStatus(fmt.Errorf("%w: a nil context or invoker", ErrInvalidCall))
	}
	key, err := keyOf(i.key, ctx, cc, method)
	if err != nil {
		return withStatus(err)
	}
	c, err := newCall(method, req, reply, cc, invoker, opts, i.classify)
	if err != nil {
		return withStatus(err)
	}
	v, err := i.reg.CallWith(ctx, key, c, i.factory)
	if got, ok := v.(*call); ok && got == c && c.ran {
		// (a target of the program's own that echoes its message hands
		// the call back unsent: it is no answer of the package's)
		return c.take(reply, opts)
	}
	c.abandon()
	switch {
	case err == nil:
		err = fmt.Errorf("%w: key %q is not this package's: its target answered %T", tripwire.ErrUnexpectedReply, key, v)
	case errors.Is(err, tripwire.ErrInvalidKey):
		err = fmt.Errorf("%w: %w", ErrKey, err)
	}
	return withStatus(err)
}

// keyOf runs the key func; its error, or panic, is ErrKey.
func keyOf(f KeyFunc, ctx context.Context, cc *grpc.ClientConn, method string) (key string, err error) {
	defer func() {
		if p := recover(); p != nil {
			key, err = "", fmt.Errorf("%w: the key func panicked: %v", ErrKey, p)
		}
	}()
	key, err = f(ctx, cc, method)
	if err != nil && !errors.Is(err, ErrKey) {
		err = fmt.Errorf("%w: %w", ErrKey, err)
	}
	return key, err
}
