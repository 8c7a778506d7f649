package actor

import (
	"flag"
	"testing"

	"go.uber.org/goleak"
)

// defaultChecks is how many sequences the package's property test
// (TestARunOfSuccessesCountsAsEachSuccessWould) tries unless -rapid.checks
// says otherwise: a run's fault shows only in some orders of successes,
// callers' counts and epochs, and 100 (rapid's default) miss some.
const defaultChecks = "2000"

// TestMain fails the package if a breaker, worker or timer goroutine
// outlives the tests.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if !set {
		if err := flag.Set("rapid.checks", defaultChecks); err != nil {
			panic(err)
		}
	}
	goleak.VerifyTestMain(m)
}
