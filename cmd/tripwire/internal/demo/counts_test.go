package demo

import (
	"testing"

	"github.com/tripwire-go/tripwire/internal/observe"
)

func TestCountsAddSortsEveryKind(t *testing.T) {
	want := [observe.NumKinds]Counts{
		observe.KindOK:         {OK: 3},
		observe.KindOpen:       {Rejected: 3},
		observe.KindOverloaded: {Rejected: 3},
		observe.KindTimeout:    {Timeouts: 3},
		observe.KindCanceled:   {},
		observe.KindDeadline:   {Failed: 3},
		observe.KindPanic:      {Failed: 3},
		observe.KindTargetDown: {Failed: 3},
		observe.KindRestarted:  {Restarted: 3},
		observe.KindShutdown:   {Failed: 3},
		observe.KindFailure:    {Failed: 3},
	}
	for k := range observe.NumKinds {
		// Given no answers, When three of kind k are added
		var c Counts
		c.Add(k, 3)
		// Then they are in Calls and in k's column (a withdrawn call in Calls only)
		w := want[k]
		w.Calls = 3
		if c != w {
			t.Errorf("Add(%v, 3) = %+v, want %+v", k, c, w)
		}
	}
}
