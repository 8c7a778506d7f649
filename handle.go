package tripwire

import (
	"context"
	"fmt"
	"reflect"
)

// Handle is a typed door to one key of a registry, made by Key: its calls
// take a Req and answer a Resp, so a caller's mistaken type is a compile
// error, as with gobreaker's CircuitBreaker[T]. It is a small value, safe
// for concurrent use and cheap to copy; the zero Handle's calls fail with
// ErrInvalidOption.
type Handle[Req, Resp any] struct {
	r    *Registry
	key  string
	want reflect.Type // Resp's type, nil for any
}

// Key returns the Handle of key in r. Nothing is checked until a call, which
// returns what Call would for a bad key or registry. A call is refused
// before its target runs, counting neither way, if the target cannot take a
// Req (a Func of another Req: ErrInvalidMessage) or declares answers that
// can never be a Resp (a Func of another Resp: ErrUnexpectedReply); an actor
// target declares none, and an answer of another type from it is
// ErrUnexpectedReply after the call.
func Key[Req, Resp any](r *Registry, key string) Handle[Req, Resp] {
	h := Handle[Req, Resp]{r: r, key: key}
	if t := reflect.TypeFor[Resp](); t.Kind() != reflect.Interface || t.NumMethod() > 0 {
		h.want = t
	}
	return h
}

// Call is Registry.Call of the handle's key with req, its answer a Resp. A
// nil answer is Resp's zero value when a Resp can be nil (a pointer,
// interface, map, slice, channel or func), and ErrUnexpectedReply
// otherwise.
func (h Handle[Req, Resp]) Call(ctx context.Context, req Req) (Resp, error) {
	var zero Resp
	if h.r == nil {
		return zero, errNoRegistry
	}
	v, err := h.r.call(ctx, h.key, req, h.r.factory, h.want)
	if err != nil {
		return zero, err
	}
	if resp, ok := v.(Resp); ok {
		return resp, nil
	}
	if v == nil && nilable(reflect.TypeFor[Resp]()) {
		return zero, nil
	}
	return zero, fmt.Errorf("%w: got %T, want %v", ErrUnexpectedReply, v, reflect.TypeFor[Resp]())
}

func nilable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice, reflect.Chan, reflect.Func:
		return true
	}
	return false
}
