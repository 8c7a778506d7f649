package dashboard

import (
	"testing"

	"github.com/tripwire-go/tripwire/internal/demo"
	"github.com/tripwire-go/tripwire/internal/soak"
)

func TestCountsOfSortsEverySoakOutcome(t *testing.T) {
	// Given a key's soak answers, a different number of each outcome
	var a soak.Counts
	for o := range a {
		a[o] = 1 << o
	}
	// When they are sorted into a row's counts
	got := countsOf(a)
	// Then each outcome is in its column, and canceled in Calls only
	want := demo.Counts{
		Calls:     a.Sum(),
		OK:        a[soak.OK],
		Failed:    a[soak.Injected] + a[soak.Down] + a[soak.Panicked] + a[soak.TargetDown] + a[soak.ShutDown] + a[soak.Other],
		Timeouts:  a[soak.Timeout],
		Rejected:  a[soak.Open],
		Restarted: a[soak.Restarted],
	}
	if got != want {
		t.Fatalf("countsOf(%v) = %+v, want %+v", a, got, want)
	}
}
