package dashboard

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
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

func tr(key string, from, to state.State, reason state.Reason, at time.Duration) state.Transition {
	return state.Transition{Key: key, From: from, To: to, Reason: reason, At: t0.Add(at)}
}

func TestATransitionOlderThanWhatTheBoardKnowsChangesNothing(t *testing.T) {
	// Given a board that saw k open at +2
	b := bareBoard("k")
	b.note(tr("k", state.Closed, state.Open, state.ReasonThreshold, 2))
	// When the transition before it arrives late
	b.note(tr("k", state.Closed, state.Closed, state.ReasonRestarted, 1))
	// Then k is still open
	if m := b.marks["k"]; m == nil || m.state != state.Open {
		t.Fatalf("%+v", m)
	}
	// and a snapshot taken before the trip does not close it either
	b.apply(tripwire.Snapshot{Key: "k", State: state.Closed, Since: t0}, t0.UnixNano(), t0, true)
	if m := b.marks["k"]; m == nil || m.state != state.Open {
		t.Fatalf("after a stale snapshot: %+v", m)
	}
	// but one taken after a reset at +3 does: k is healthy and unmarked
	b.apply(tripwire.Snapshot{Key: "k", State: state.Closed, Reason: state.ReasonReset, Since: t0.Add(3)}, t0.Add(4).UnixNano(), t0, true)
	if m, ok := b.marks["k"]; ok {
		t.Fatalf("still marked: %+v", m)
	}
}

func TestAnOverrideLastsUntilAResetOrARestart(t *testing.T) {
	for _, tc := range []struct {
		reason state.Reason
		before state.Force
		want   state.Force
	}{
		{state.ReasonForcedOpen, state.NotForced, state.ForcedOpen},
		{state.ReasonForcedClosed, state.ForcedOpen, state.ForcedClosed},
		{state.ReasonReset, state.ForcedOpen, state.NotForced},
		{state.ReasonRestarted, state.ForcedClosed, state.NotForced},
		{state.ReasonUpdated, state.ForcedClosed, state.ForcedClosed},
		{state.ReasonThreshold, state.NotForced, state.NotForced},
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
