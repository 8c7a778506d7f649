package actor

import "github.com/tripwire-go/tripwire/internal/hook"

// hotCalls is how many successes through a key's breaker in one epoch of
// its statistics (a tenth of their window) make the key hot: its workers
// then count its successes themselves, without a turn of the breaker, while
// its circuit is closed and quiet (see hotlane.go). Tests turn it down to
// make the hot lane common (internal/testkit.HotCalls), before they start a
// registry.
var hotCalls uint32 = defaultHotCalls

const defaultHotCalls = 1000

func init() {
	hook.HotCalls = func(n uint32) (restore func()) {
		hotCalls = n
		return func() { hotCalls = defaultHotCalls }
	}
}
