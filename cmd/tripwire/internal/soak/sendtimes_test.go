package soak

import (
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

func newSendTimes() *sendTimes {
	return &sendTimes{base: time.Now(), slots: make([]sendSlot, sendSlots)}
}

func TestSendTimesKeepEachIdsOwnTime(t *testing.T) {
	s := newSendTimes()
	// Given the answers to calls 7 and 8 sent, and a message that is no id
	before := time.Now()
	s.mark(int64(7))
	s.mark(int64(8))
	s.mark("not an id")
	after := time.Now()
	// Then each id has a time from when it was marked
	for _, id := range []int64{7, 8} {
		at, ok := s.at(id)
		if !ok || at.Before(before) || at.After(after) {
			t.Fatalf("id %d: %v %v, want within [%v, %v]", id, at, ok, before, after)
		}
	}
	// and an id never marked, or overwritten by one sendSlots later, has none
	s.mark(int64(7 + sendSlots))
	for _, id := range []int64{9, 7, 0, -1} {
		if at, ok := s.at(id); ok {
			t.Fatalf("id %d has a send time %v", id, at)
		}
	}
	if _, ok := s.at(7 + sendSlots); !ok {
		t.Fatal("the id that took the slot has no send time")
	}
	// and a build without the hook has none at all
	var none *sendTimes
	if _, ok := none.at(8); ok {
		t.Fatal("no recorder, yet a send time")
	}
}

func TestALateAnswerCarriesItsSendTime(t *testing.T) {
	var c callerTally
	lv := newLive(1)
	lv.sends = newSendTimes()
	begin := time.Now().Add(-10 * time.Millisecond)
	// Given call 5, made 10 ms ago with a 1 ms deadline, answered now
	lv.sends.mark(int64(5))
	sent, _ := lv.sends.at(5)
	// When its caller gets it 100 ms past its 1 ms deadline
	c.answered(lv, 0, 5, tripwire.ErrTimeout, begin, begin.Add(101*time.Millisecond), time.Millisecond, true)
	// Then the late answer says when it was sent, and the latest send past
	// a deadline is that one's
	if len(c.lates) != 1 || !c.lates[0].Sent.Equal(sent) {
		t.Fatalf("lates %v, want one sent at %v", c.lates, sent)
	}
	if want := sent.Sub(begin.Add(time.Millisecond)); c.maxSent != want {
		t.Fatalf("latest send %v past the deadline, want %v", c.maxSent, want)
	}
	// and one whose send is not recorded has none
	c.answered(lv, 0, 6, tripwire.ErrTimeout, begin, begin.Add(101*time.Millisecond), time.Millisecond, true)
	if len(c.lates) != 2 || !c.lates[1].Sent.IsZero() {
		t.Fatalf("lates %v, want the second without a send time", c.lates)
	}
	if c.pastDue != 2 || c.sentKnown != 1 {
		t.Fatalf("%d past their deadline, %d with a send time; want 2 and 1", c.pastDue, c.sentKnown)
	}
}
