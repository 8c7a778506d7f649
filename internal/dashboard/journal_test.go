package dashboard

import (
	"testing"

	"github.com/tripwire-go/tripwire"
)

// bareJournal is a journal with no registry behind it, fed by hand.
func bareJournal() *journal {
	return &journal{recent: make([]Transition, 0, historySize), followers: map[*follower]struct{}{}, unsubscribe: func() {}}
}

func TestJournalKeepsTheLastTransitions(t *testing.T) {
	// Given a journal
	j := bareJournal()
	// When more transitions than it keeps arrive
	for range historySize + 50 {
		j.add(tripwire.Transition{Key: "k", From: tripwire.Closed, To: tripwire.Open})
	}
	// Then it has the last historySize, oldest first
	h := j.history()
	if len(h) != historySize || h[0].Seq != 51 || h[len(h)-1].Seq != historySize+50 {
		t.Fatalf("%d kept, seq %d..%d", len(h), h[0].Seq, h[len(h)-1].Seq)
	}
}

func TestAFollowerGetsWhatComesAfterItsHistory(t *testing.T) {
	// Given a journal with two transitions
	j := bareJournal()
	j.add(tripwire.Transition{Key: "a"})
	j.add(tripwire.Transition{Key: "b"})
	// When a follower joins and a third arrives
	history, f := j.follow()
	j.add(tripwire.Transition{Key: "c"})
	// Then its history has the first two and its inbox the third: none twice
	if len(history) != 2 || history[1].Key != "b" {
		t.Fatalf("%+v", history)
	}
	if got := <-f.ch; got.Key != "c" || got.Seq != 3 {
		t.Fatalf("%+v", got)
	}
	// and after it leaves it gets nothing more
	j.leave(f)
	j.add(tripwire.Transition{Key: "d"})
	if len(f.ch) != 0 {
		t.Fatal("delivered after leave")
	}
}

func TestASlowFollowerCountsWhatItMissed(t *testing.T) {
	// Given a follower that reads nothing
	j := bareJournal()
	_, f := j.follow()
	// When more transitions arrive than its inbox holds
	for range followBuffer + 7 {
		j.add(tripwire.Transition{Key: "k"})
	}
	// Then the journal did not wait for it, and counts the ones it dropped, once
	if len(f.ch) != followBuffer || j.takeMissed(f) != 7 || j.takeMissed(f) != 0 {
		t.Fatalf("inbox %d", len(f.ch))
	}
}
