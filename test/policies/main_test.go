// Package policies holds end-to-end scenario tests of the breaker policies
// (failure-rate windows, slow calls, backoff, probes, classification, the
// open error, capacity, target down, manual control, breakers on demand and
// idle breakers), written against the public root API only. They run in fake
// time (testing/synctest), so every instant they assert is exact.
package policies

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
