package demo

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire"
)

// runDemo runs cfg for d in fake time and returns the transitions seen and
// the rows at the end.
func runDemo(t *testing.T, cfg Config, d time.Duration) (trans []tripwire.Transition, rows []Row) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		sys := tripwire.NewActorSystem(nil)
		defer sys.Shutdown()
		reg, err := tripwire.Start(sys)
		if err != nil {
			t.Fatal(err)
		}
		defer reg.Shutdown(context.Background())
		reg.Subscribe(func(tr tripwire.Transition) { trans = append(trans, tr) })
		drv, err := New(reg, sys, cfg)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		drv.Run(ctx)
		synctest.Wait()
		rows = drv.Rows()
	})
	return trans, rows
}

func TestDownUpOpensAndCloses(t *testing.T) {
	// Given one key whose dependency is down from 1.5 s to 4.5 s
	cfg := DefaultConfig()
	cfg.Keys = 1
	// When callers call it for 8 s
	trans, rows := runDemo(t, cfg, 8*time.Second)
	// Then its breaker opened while it was down and closed after
	if len(trans) < 2 || trans[0].To != tripwire.Open || trans[len(trans)-1].To != tripwire.Closed {
		t.Fatalf("transitions %+v", trans)
	}
	r := rows[0]
	if r.State != tripwire.Closed || r.OK == 0 || r.Rejected == 0 || r.Failed == 0 || r.Timeouts == 0 {
		t.Fatalf("row %+v", r)
	}
}

func TestDiesOpensOnTargetDown(t *testing.T) {
	// Given one key in front of an actor that dies at 1.5 s and is back at 4.5 s
	cfg := DefaultConfig()
	cfg.Keys, cfg.Pattern = 1, Dies
	// When callers call it for 8 s
	trans, rows := runDemo(t, cfg, 8*time.Second)
	// Then the breaker opened because the target died, and closed again
	if len(trans) < 2 || trans[0].Reason != tripwire.ReasonTargetDown || trans[len(trans)-1].To != tripwire.Closed {
		t.Fatalf("transitions %+v", trans)
	}
	if rows[0].OK == 0 || rows[0].Rejected == 0 {
		t.Fatalf("row %+v", rows[0])
	}
}
