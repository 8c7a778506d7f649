// Package load runs Tripwire under real-time load and chaos: many callers on
// many keys against fault-injecting targets (test/chaos) while breakers are
// crashed at random, and checks at the end that every call got exactly one
// answer, in time, and that nothing leaked. The harness is internal/soak
// (which `tripwire soak` runs too); this package sizes it with flags and adds
// goleak. `make test` runs it small; `make soak` runs it big (see
// params_test.go for the knobs).
package load

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
