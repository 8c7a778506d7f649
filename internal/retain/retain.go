// Package retain helps tests tell whether something stopped still holds
// memory: the runtime keeps a stopped timer, and what its func refers to,
// in its heap until the time it was due, unless it sweeps the heap first
// (when a quarter of it is stopped timers, or one is at its head).
package retain

import (
	"runtime"
	"testing"
	"time"
	"weak"
)

// HoldTimers arms n timers two hours off, stopped when tb ends: with them
// in its heaps the runtime does not sweep out a stopped timer of the test
// before it was due, as a real program's many timers keep it from doing.
func HoldTimers(tb testing.TB, n int) {
	tb.Helper()
	timers := make([]*time.Timer, n)
	for i := range timers {
		timers[i] = time.AfterFunc(2*time.Hour, func() {})
	}
	tb.Cleanup(func() {
		for _, tm := range timers {
			tm.Stop()
		}
	})
}

// Kept is how many of ws still point at something after two collections.
func Kept[T any](ws []weak.Pointer[T]) int {
	runtime.GC()
	runtime.GC()
	kept := 0
	for _, w := range ws {
		if w.Value() != nil {
			kept++
		}
	}
	return kept
}
