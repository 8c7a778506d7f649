package test

import (
	"testing"

	"github.com/tripwire-go/tripwire"
)

// onePerRequest checks that replies hold exactly one reply for each of msgs,
// and returns them by request.
func onePerRequest(t *testing.T, msgs []any, replies []*tripwire.Reply) map[any]*tripwire.Reply {
	t.Helper()
	byReq := map[any]*tripwire.Reply{}
	for _, r := range replies {
		if _, dup := byReq[r.Request]; dup {
			t.Errorf("second reply for request %v: %v, %v", r.Request, r.Value, r.Err)
		}
		byReq[r.Request] = r
	}
	for _, m := range msgs {
		if _, ok := byReq[m]; !ok {
			t.Errorf("no reply for request %v", m)
		}
	}
	if len(replies) != len(msgs) {
		t.Errorf("got %d replies for %d requests", len(replies), len(msgs))
	}
	return byReq
}
