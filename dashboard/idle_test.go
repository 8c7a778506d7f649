package dashboard

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

func TestAStreamSendsOnlyTheRowsThatChanged(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given three keys, one busy and two idle, and a page following them
		dep := newDependency()
		for _, k := range []string{"busy", "idle1", "idle2"} {
			testkit.Register(t, e.Reg, k, dep.target(k), quiet)
		}
		rec, stop := page(t, e.Reg)
		defer stop()
		synctest.Wait()
		first := len(rec.events())
		// When the busy key is called every second for ten seconds
		for range 10 {
			if _, err := e.Reg.Call(t.Context(), "busy", "ping"); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Second)
			synctest.Wait()
		}
		// Then every update is the busy key's row, never an idle one's
		updates := named(rec.events()[first:], "rows")
		if len(updates) < 8 {
			t.Fatalf("%d updates in 10 refreshes", len(updates))
		}
		for _, u := range updates {
			var fr Frame
			u.decodeInto(t, &fr)
			if !slices.Equal(order(fr.Rows), []string{"busy"}) || fr.Reset || len(fr.Removed) > 0 {
				t.Fatalf("an update with %v (removed %v)", order(fr.Rows), fr.Removed)
			}
		}
		// When it goes quiet too, and its window has drained
		time.Sleep(state.StatsWindow + 2*time.Second)
		synctest.Wait()
		quiet := len(rec.events())
		// Then a minute of refreshes (and censuses) sends nothing at all
		time.Sleep(time.Minute)
		synctest.Wait()
		if evs := rec.events()[quiet:]; len(evs) != 0 {
			t.Fatalf("%d events from idle keys, first %s %s", len(evs), evs[0].name, evs[0].data)
		}
	})
}
