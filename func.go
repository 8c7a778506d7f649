package tripwire

import (
	"context"
	"fmt"
	"reflect"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
)

// Func protects a function. It runs on a worker with a context that
// carries the call's deadline and the caller's cancellation, and ends
// (context.Canceled, if nothing ended it before) once the call has its
// answer: what the function started with it is told to stop. A returned
// error counts as a failure, and a panic is recovered as ErrTargetPanic.
//
// A call's message must be a Req, or the call is refused at once with
// ErrInvalidMessage — before the target runs, counting neither way — so a
// caller's mistake never trips the breaker for everyone. A Req that is a
// pointer type refuses a nil one the same way. Its answers are Resps: a
// Handle whose Resp can never be one is refused with ErrUnexpectedReply,
// before the target runs. Func[any, any] takes and answers anything. A nil
// fn is ErrInvalidTarget at Register.
func Func[Req, Resp any](fn func(ctx context.Context, req Req) (Resp, error)) Target {
	if fn == nil {
		return targetSpec{}
	}
	call := func(ctx context.Context, msg any) (any, error) {
		req, _ := msg.(Req) // (a nil message is an untyped Req's zero value)
		return fn(ctx, req)
	}
	c := &tactor.Contract{Reply: reflect.TypeFor[Resp]()}
	if c.Reply.Kind() == reflect.Interface && c.Reply.NumMethod() == 0 {
		c.Reply = nil // answers anything
	}
	if req := reflect.TypeFor[Req](); req.Kind() == reflect.Interface && req.NumMethod() == 0 {
		if c.Reply == nil {
			return targetSpec{fn: call}
		}
		return targetSpec{fn: call, contract: c} // takes anything
	}
	pointer := reflect.TypeFor[Req]().Kind() == reflect.Pointer
	c.Check = func(msg any) error {
		if _, ok := msg.(Req); !ok {
			return fmt.Errorf("%w: %T, want %v", ErrInvalidMessage, msg, reflect.TypeFor[Req]())
		}
		if pointer && reflect.ValueOf(msg).IsNil() {
			return fmt.Errorf("%w: a nil %v", ErrInvalidMessage, reflect.TypeFor[Req]())
		}
		return nil
	}
	return targetSpec{fn: call, contract: c}
}
