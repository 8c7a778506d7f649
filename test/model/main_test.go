// Package model holds the model-based test of the whole registry: a rapid
// state machine that runs random operations in fake time against the real
// registry and a plain reference model side by side.
package model

import (
	"flag"
	"testing"

	"go.uber.org/goleak"
)

// defaultSteps is the average number of steps of a case unless -rapid.steps
// says otherwise. rapid's own default (30) rarely takes a breaker through a
// whole closed → open → half-open → closed cycle with other keys around.
const defaultSteps = "150"

// TestMain fails the package if a breaker, worker, timer or caller goroutine
// outlives the tests.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.steps" })
	if !set {
		if err := flag.Set("rapid.steps", defaultSteps); err != nil {
			panic(err)
		}
	}
	goleak.VerifyTestMain(m)
}
