package soak_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/soak"
)

// check logs a finished run's report, fails the test for every violated
// invariant, and checks that nothing of the run is left.
func check(t *testing.T, name string, cfg soak.Config, rep soak.Report) {
	t.Helper()
	t.Logf("%s: %d callers + %d askers × %d keys × %v, think %v, crash every %v",
		name, cfg.Callers, cfg.Askers, cfg.Keys, cfg.Duration, cfg.Think, cfg.CrashEvery)
	for _, l := range rep.Summary(cfg) {
		t.Log("  " + l)
	}
	for _, v := range rep.Violations(cfg) {
		t.Error(v)
	}
	// After Shutdown nothing of the run is left.
	goleak.VerifyNone(t)
}
