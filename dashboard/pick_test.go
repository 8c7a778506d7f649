package dashboard

import (
	"slices"
	"testing"

	"github.com/tripwire-go/tripwire/state"
)

func TestPickIsWorstFirstThenHealthyKeysInKeyOrder(t *testing.T) {
	// Given a census of a..f, c open, e half-open, b forced closed, and g
	// registered since the census and forced open
	b := bareBoard("a", "b", "c", "d", "e", "f")
	b.note(tr("c", state.Closed, state.Open, state.ReasonThreshold, 1))
	b.note(tr("e", state.Open, state.HalfOpen, state.ReasonOpenTimeout, 2))
	b.note(tr("b", state.Closed, state.Closed, state.ReasonForcedClosed, 3))
	b.note(tr("g", state.Closed, state.Open, state.ReasonForcedOpen, 4))
	for _, tc := range []struct {
		f       filter
		want    []string
		matched int
	}{
		{filter{limit: 10}, []string{"c", "g", "e", "b", "a", "d", "f"}, 7},
		{filter{limit: 3}, []string{"c", "g", "e"}, 7},
		{filter{limit: 5}, []string{"c", "g", "e", "b", "a"}, 7},
		{filter{limit: 10, states: []state.State{state.Closed}}, []string{"b", "a", "d", "f"}, 4},
		{filter{limit: 10, states: []state.State{state.Open, state.HalfOpen}}, []string{"c", "g", "e"}, 3},
		{filter{limit: 10, prefix: "g"}, []string{"g"}, 1},
		{filter{limit: 10, prefix: "x"}, nil, 0},
	} {
		// When a view picks its keys
		got, matched := b.pick(tc.f)
		// Then they are open, half-open, forced, then the rest by key
		if !slices.Equal(got, tc.want) || matched != tc.matched {
			t.Errorf("%+v: %v (%d), want %v (%d)", tc.f, got, matched, tc.want, tc.matched)
		}
	}
	// and the summary counts g too
	if s := b.count(); s.Keys != 7 || s.Open != 2 || s.HalfOpen != 1 || s.Forced != 2 || s.Closed != 4 {
		t.Errorf("summary %+v", s)
	}
	// When d goes away (unregistered) and c closes again
	b.forget("d")
	b.note(tr("c", state.HalfOpen, state.Closed, state.ReasonProbeSucceeded, 5))
	// Then d is gone and c is failing (its window holds what opened it) until a look says otherwise
	if got, matched := b.pick(filter{limit: 10}); !slices.Equal(got, []string{"g", "e", "b", "c", "a", "f"}) || matched != 6 {
		t.Errorf("after: %v (%d)", got, matched)
	}
}
