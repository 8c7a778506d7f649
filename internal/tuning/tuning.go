// Package tuning holds the thresholds of the call path that tests turn
// down, to make the rare path common: a test sets them before it starts a
// registry, and puts them back after.
package tuning

// DefaultHotCalls is HotCalls as the package sets it.
const DefaultHotCalls = 1000

// HotCalls is how many successes through a key's breaker in one epoch of
// its statistics (a tenth of their window) make the key hot: its workers
// then count its successes themselves, without a turn of the breaker, while
// its circuit is closed and quiet (see actor/hotlane.go).
var HotCalls uint32 = DefaultHotCalls
