package dashboard

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

// bareBoard is a board with a census of names and no registry: its marks
// come from the transitions and snapshots a test hands it.
func bareBoard(names ...string) *board {
	b := newBoard(nil, time.Second)
	for _, k := range names {
		b.census.keys = append(b.census.keys, censusKey{key: k})
	}
	slices.SortFunc(b.census.keys, func(x, y censusKey) int { return strings.Compare(x.key, y.key) })
	b.census.at = time.Unix(1, 0)
	return b
}

var t0 = time.Unix(1000, 0)

func tr(key string, from, to tripwire.State, reason string, at time.Duration) tripwire.Transition {
	return tripwire.Transition{Key: key, From: from, To: to, Reason: reason, At: t0.Add(at)}
}

func TestPickIsWorstFirstThenHealthyKeysInKeyOrder(t *testing.T) {
	// Given a census of a..f, c open, e half-open, b forced closed, and g
	// registered since the census and forced open
	b := bareBoard("a", "b", "c", "d", "e", "f")
	b.note(tr("c", tripwire.Closed, tripwire.Open, tripwire.ReasonThreshold, 1))
	b.note(tr("e", tripwire.Open, tripwire.HalfOpen, tripwire.ReasonOpenTimeout, 2))
	b.note(tr("b", tripwire.Closed, tripwire.Closed, tripwire.ReasonForcedClosed, 3))
	b.note(tr("g", tripwire.Closed, tripwire.Open, tripwire.ReasonForcedOpen, 4))
	for _, tc := range []struct {
		f       filter
		want    []string
		matched int
	}{
		{filter{limit: 10}, []string{"c", "g", "e", "b", "a", "d", "f"}, 7},
		{filter{limit: 3}, []string{"c", "g", "e"}, 7},
		{filter{limit: 5}, []string{"c", "g", "e", "b", "a"}, 7},
		{filter{limit: 10, states: []tripwire.State{tripwire.Closed}}, []string{"b", "a", "d", "f"}, 4},
		{filter{limit: 10, states: []tripwire.State{tripwire.Open, tripwire.HalfOpen}}, []string{"c", "g", "e"}, 3},
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
	b.note(tr("c", tripwire.HalfOpen, tripwire.Closed, tripwire.ReasonProbeSucceeded, 5))
	// Then d is gone and c is failing (its window holds what opened it) until a look says otherwise
	if got, matched := b.pick(filter{limit: 10}); !slices.Equal(got, []string{"g", "e", "b", "c", "a", "f"}) || matched != 6 {
		t.Errorf("after: %v (%d)", got, matched)
	}
}

func TestATransitionOlderThanWhatTheBoardKnowsChangesNothing(t *testing.T) {
	// Given a board that saw k open at +2
	b := bareBoard("k")
	b.note(tr("k", tripwire.Closed, tripwire.Open, tripwire.ReasonThreshold, 2))
	// When the transition before it arrives late
	b.note(tr("k", tripwire.Closed, tripwire.Closed, tripwire.ReasonRestarted, 1))
	// Then k is still open
	if m := b.marks["k"]; m == nil || m.state != tripwire.Open {
		t.Fatalf("%+v", m)
	}
	// and a snapshot taken before the trip does not close it either
	b.apply(tripwire.Snapshot{Key: "k", State: tripwire.Closed, Since: t0}, t0.UnixNano(), t0, true)
	if m := b.marks["k"]; m == nil || m.state != tripwire.Open {
		t.Fatalf("after a stale snapshot: %+v", m)
	}
	// but one taken after a reset at +3 does: k is healthy and unmarked
	b.apply(tripwire.Snapshot{Key: "k", State: tripwire.Closed, Reason: tripwire.ReasonReset, Since: t0.Add(3)}, t0.Add(4).UnixNano(), t0, true)
	if m, ok := b.marks["k"]; ok {
		t.Fatalf("still marked: %+v", m)
	}
}

func TestAnOverrideLastsUntilAResetOrARestart(t *testing.T) {
	for _, tc := range []struct {
		reason string
		before tripwire.Force
		want   tripwire.Force
	}{
		{tripwire.ReasonForcedOpen, tripwire.NotForced, tripwire.ForcedOpen},
		{tripwire.ReasonForcedClosed, tripwire.ForcedOpen, tripwire.ForcedClosed},
		{tripwire.ReasonReset, tripwire.ForcedOpen, tripwire.NotForced},
		{tripwire.ReasonRestarted, tripwire.ForcedClosed, tripwire.NotForced},
		{tripwire.ReasonUpdated, tripwire.ForcedClosed, tripwire.ForcedClosed},
		{tripwire.ReasonThreshold, tripwire.NotForced, tripwire.NotForced},
	} {
		if got := forcedBy(tc.reason, tc.before); got != tc.want {
			t.Errorf("%s after %v: %v, want %v", tc.reason, tc.before, got, tc.want)
		}
	}
}

func TestACensusIsDueAtMostAFiftiethOfTheTime(t *testing.T) {
	now := t0
	for _, tc := range []struct {
		took, ago time.Duration
		due       bool
	}{
		{0, 0, true}, // no census yet
		{time.Millisecond, 4 * time.Second, false},
		{time.Millisecond, 5 * time.Second, true}, // five refreshes
		{time.Second, 49 * time.Second, false},
		{time.Second, 50 * time.Second, true},
	} {
		c := census{took: tc.took}
		if tc.ago > 0 || tc.took > 0 {
			c.at = now.Add(-tc.ago - tc.took)
		}
		if got := censusDue(c, time.Second, now); got != tc.due {
			t.Errorf("took %v, ended %v ago: due %v", tc.took, tc.ago, got)
		}
	}
}
