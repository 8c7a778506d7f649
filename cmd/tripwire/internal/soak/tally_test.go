package soak

import (
	"errors"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

func TestAnsweredClassifiesAndTimes(t *testing.T) {
	var c callerTally
	lv := newLive(2)
	begin := time.Unix(0, 0)
	// Given answers of each kind on key 1, one of them 80 ms late and one crossed
	c.answered(lv, 1, 0, nil, begin, begin.Add(time.Millisecond), 30*time.Millisecond, true)
	c.answered(lv, 1, 0, errors.Join(errors.New("wrapped"), tripwire.ErrOpen), begin, begin, 30*time.Millisecond, true)
	c.answered(lv, 1, 0, tripwire.ErrTimeout, begin, begin.Add(110*time.Millisecond), 30*time.Millisecond, true)
	c.answered(lv, 1, 0, nil, begin, begin, 30*time.Millisecond, false)
	c.answered(lv, 1, 0, errors.New("surprise"), begin, begin.Add(40*time.Millisecond), 30*time.Millisecond, true)
	// Then the tallies, per caller and per key, say so
	want := Counts{OK: 2, Open: 1, Timeout: 1, Other: 1}
	if c.answers != want || lv.perKey[1].load() != want || lv.perKey[0].load() != (Counts{}) {
		t.Fatalf("caller %v, keys %v %v, want %v on key 1", c.answers, lv.perKey[0].load(), lv.perKey[1].load(), want)
	}
	if c.crossed != 1 || len(c.lates) != 1 || c.maxOver != 80*time.Millisecond || len(c.unexpects) != 1 {
		t.Fatalf("crossed %d, lates %v, maxOver %v, unexpects %v", c.crossed, c.lates, c.maxOver, c.unexpects)
	}
	// And what the run shows as it goes counts the late one, not the 10 ms one
	if lv.lates.Load() != 1 || lv.maxOver.load() != int64(80*time.Millisecond) {
		t.Fatalf("live lates %d, maxOver %v", lv.lates.Load(), time.Duration(lv.maxOver.load()))
	}
}

func TestTallyKeepsABoundedNumberOfLateAnswers(t *testing.T) {
	var c callerTally
	lv := newLive(1)
	begin := time.Unix(0, 0)
	// Given more late answers than a tally keeps
	for range maxLates + 3 {
		c.answered(lv, 0, 0, tripwire.ErrTimeout, begin, begin.Add(time.Second), time.Millisecond, true)
	}
	// Then it keeps maxLates and counts the rest
	if len(c.lates) != maxLates || c.lateLost != 3 || lv.lates.Load() != maxLates+3 {
		t.Fatalf("kept %d, lost %d, live %d", len(c.lates), c.lateLost, lv.lates.Load())
	}
}

func TestMergeAddsTalliesUp(t *testing.T) {
	// Given two callers' tallies
	a := callerTally{started: 3, answers: Counts{OK: 3}, maxOver: time.Millisecond, dups: 1, unexpects: []string{"x"}}
	b := callerTally{started: 2, answers: Counts{Open: 1}, maxOver: 2 * time.Millisecond, missing: 1, crossed: 1, refused: 2,
		lates: []LateAnswer{{Kind: Timeout}}, lateLost: 4}
	// When they are merged
	var all callerTally
	all.merge(a)
	all.merge(b)
	// Then every figure adds up, and the latest answer is the later one
	if all.started != 5 || all.answers != (Counts{OK: 3, Open: 1}) || all.maxOver != 2*time.Millisecond ||
		all.dups != 1 || all.missing != 1 || all.crossed != 1 || all.refused != 2 || len(all.lates) != 1 ||
		all.lateLost != 4 || len(all.unexpects) != 1 {
		t.Fatalf("merged %+v", all)
	}
}
