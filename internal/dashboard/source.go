package dashboard

import (
	"reflect"

	"github.com/tripwire-go/tripwire/internal/demo"
)

// Source is the load behind a dashboard: the keys it registered on the
// registry and drives, each with a row of its breaker's snapshot and what
// the load's callers got from it. *demo.Driver is one (tripwire serve);
// FromSoak makes one of a soak run (tripwire serve -soak).
type Source interface {
	// Rows returns one row per key, in key order. A key whose snapshot
	// cannot be taken has the reason in Row.Err.
	Rows() []demo.Row
}

// Crasher is a Source that must make the crashes of its keys itself: the
// crash action goes through it rather than straight to the registry. A
// soak run checks that every crash restarted its breaker once, so it must
// count the dashboard's crashes too.
type Crasher interface {
	Crash(key string) error
}

// isNil reports whether src is nil, or a nil pointer such as a nil
// *demo.Driver.
func isNil(src Source) bool {
	if src == nil {
		return true
	}
	v := reflect.ValueOf(src)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
