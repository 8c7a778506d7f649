package tripwire

import (
	"context"
	"fmt"
	"reflect"
)

// CallAs is Call with the answer converted to T. An answer of another type is
// ErrUnexpectedReply; a nil answer is T's zero value when T can be nil
// (pointer, interface, map, slice, chan, func) and ErrUnexpectedReply otherwise.
func CallAs[T any](ctx context.Context, r *Registry, key string, msg any) (T, error) {
	var zero T
	v, err := r.Call(ctx, key, msg) // a nil r is Call's ErrInvalidOption
	if err != nil {
		return zero, err
	}
	if t, ok := v.(T); ok {
		return t, nil
	}
	if v == nil && nilable(reflect.TypeFor[T]()) {
		return zero, nil
	}
	return zero, fmt.Errorf("%w: got %T, want %v", ErrUnexpectedReply, v, reflect.TypeFor[T]())
}

func nilable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice, reflect.Chan, reflect.Func:
		return true
	}
	return false
}
