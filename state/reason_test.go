package state

import (
	"encoding/json"
	"testing"
)

func TestEveryReasonRoundTripsAsText(t *testing.T) {
	seen := map[string]bool{}
	for r := ReasonNone; r < numReasons; r++ {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("%d: %v", r, err)
		}
		var back Reason
		if err := json.Unmarshal(b, &back); err != nil || back != r {
			t.Fatalf("%s: read back %v, %v", b, back, err)
		}
		if seen[r.String()] {
			t.Fatalf("two reasons are named %q", r)
		}
		seen[r.String()] = true
	}
	if _, err := json.Marshal(numReasons); err == nil {
		t.Fatal("a reason that is none marshals")
	}
	var r Reason
	if err := r.UnmarshalText([]byte("tired")); err == nil {
		t.Fatal("an unknown name reads")
	}
}

func TestManualReasonsAreTheOperatorsActions(t *testing.T) {
	for r := ReasonNone; r < numReasons; r++ {
		want := r == ReasonForcedOpen || r == ReasonForcedClosed || r == ReasonReset || r == ReasonUpdated
		if r.Manual() != want {
			t.Errorf("%s.Manual() = %v", r, !want)
		}
	}
}
