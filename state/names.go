package state

import (
	"fmt"
	"slices"
)

// A name is how logs, events and JSON show a value of an enumeration
// (State, Force, Reason): names[v].
type enum interface{ ~int32 | ~uint8 }

// nameOf is v's name, or unknown.
func nameOf[T enum](v T, names []string, unknown string) string {
	if int64(v) < 0 || int64(v) >= int64(len(names)) {
		return unknown
	}
	return names[v]
}

// marshalName is MarshalText of a value of kind.
func marshalName[T enum](kind string, v T, names []string) ([]byte, error) {
	if int64(v) < 0 || int64(v) >= int64(len(names)) {
		return nil, fmt.Errorf("state: no such %s %d", kind, v)
	}
	return []byte(names[v]), nil
}

// unmarshalName is UnmarshalText of a value of kind.
func unmarshalName[T enum](kind string, v *T, b []byte, names []string) error {
	i := slices.Index(names, string(b))
	if i < 0 {
		return fmt.Errorf("state: no such %s %q", kind, b)
	}
	*v = T(i)
	return nil
}
