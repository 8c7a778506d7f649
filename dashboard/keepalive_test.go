package dashboard

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire/internal/testkit"
)

func TestAQuietStreamWritesAtLeastEveryKeepaliveInterval(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a page following one key
		dep := newDependency()
		testkit.Register(t, e.Reg, "k", dep.target("k"), quiet)
		rec, stop := page(t, e.Reg)
		defer stop()
		synctest.Wait()
		// When the key moves a second in, off the keepalive's beat, and
		// all is quiet for two minutes after
		time.Sleep(time.Second)
		if err := e.Reg.ForceOpen(context.Background(), "k"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		// Then no two writes are further apart than the keepalive interval
		writes := rec.writeTimes()
		for i := 1; i < len(writes); i++ {
			if gap := writes[i].Sub(writes[i-1]); gap > keepaliveAfter {
				t.Fatalf("writes %v apart (at %v and %v after the first)", gap,
					writes[i-1].Sub(writes[0]), writes[i].Sub(writes[0]))
			}
		}
	})
}
