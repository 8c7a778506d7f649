package soak

import (
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

func TestAskerDetectsDuplicateCrossedAndMissingReplies(t *testing.T) {
	// Given an asker with three requests in flight on key "a"
	h := &harness{keys: []string{"a", "b"}, live: newLive(2)}
	a := newAsker(h, 0)
	now := time.Now()
	for id := int64(1); id <= 3; id++ {
		a.pending[id] = sent{key: 0, start: now}
	}
	// When request 1 is answered twice, request 2 is answered as if from key
	// "b" with another call's value, and request 3 never
	a.reply(&tripwire.Reply{Key: "a", Request: int64(1), Value: int64(1)})
	a.reply(&tripwire.Reply{Key: "a", Request: int64(1), Value: int64(1)})
	a.reply(&tripwire.Reply{Key: "b", Request: int64(2), Value: int64(7)})
	// Then the tally shows one duplicate, two crossings, one request still pending
	if a.tally.dups != 1 || a.tally.crossed != 2 || len(a.pending) != 1 {
		t.Fatalf("dups %d, crossed %d, pending %v", a.tally.dups, a.tally.crossed, a.pending)
	}
	if got := h.live.perKey[0].load(); got[OK] != 2 {
		t.Fatalf("per-key tally %v, want 2 ok on key a", got)
	}
}
