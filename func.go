package tripwire

import (
	"context"
	"fmt"
	"reflect"
)

// Func protects a typed function: a call's message must be a Req, or the
// call is refused at once with ErrInvalidMessage — before the target runs,
// counting neither way — so a caller's mistake never trips the breaker for
// everyone (an untyped FuncTarget asserting its message would panic, and
// count a failure). A Req that is a pointer type refuses a nil one the same
// way. The answer is a Resp; CallAs[Resp] takes it back typed. A nil fn is
// ErrInvalidTarget at Register.
func Func[Req, Resp any](fn func(ctx context.Context, req Req) (Resp, error)) Target {
	if fn == nil {
		return targetSpec{}
	}
	call := func(ctx context.Context, msg any) (any, error) { return fn(ctx, msg.(Req)) }
	pointer := reflect.TypeFor[Req]().Kind() == reflect.Pointer
	return Checked(FuncTarget(call), func(msg any) error {
		if _, ok := msg.(Req); !ok {
			return fmt.Errorf("%w: %T, want %v", ErrInvalidMessage, msg, reflect.TypeFor[Req]())
		}
		if pointer && reflect.ValueOf(msg).IsNil() {
			return fmt.Errorf("%w: a nil %v", ErrInvalidMessage, reflect.TypeFor[Req]())
		}
		return nil
	})
}
