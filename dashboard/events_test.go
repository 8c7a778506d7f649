package dashboard

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/tripwire-go/tripwire/state"
)

func TestAStreamStartsWithWhatThePageNeeds(t *testing.T) {
	// Given a breaker forced open before the page connects
	f := serve(t, keys("k", 3), WithTitle("ops"))
	if err := f.reg.ForceOpen(context.Background(), "k03"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the journal has the transition", func() bool { return len(f.h.journal.history(filter{limit: historySize})) == 1 })
	// When a page connects
	e := f.follow(t, "")
	// Then it is told who it is, gets every row at once, worst first, and the transition it missed
	var in Info
	e.next(t, "hello").decodeInto(t, &in)
	var fr Frame
	e.next(t, "rows").decodeInto(t, &fr)
	var history []Transition
	e.next(t, "history").decodeInto(t, &history)
	if in.Title != "ops" || in.Control || in.RefreshMs != 1000 || in.Limit != defaultLimit {
		t.Errorf("hello %+v", in)
	}
	if !fr.Reset || !slices.Equal(order(fr.Rows), []string{"k03", "k01", "k02"}) || fr.Matched != 3 || fr.Summary.Open != 1 || fr.At.IsZero() {
		t.Errorf("rows %+v", fr)
	}
	if len(history) != 1 || history[0].Key != "k03" || history[0].Reason != state.ReasonForcedOpen.String() || history[0].Seq != 1 ||
		history[0].From != state.Closed || history[0].To != state.Open {
		t.Errorf("history %+v", history)
	}
}

func TestAStreamSendsTransitionsAsTheyHappenRestartsToo(t *testing.T) {
	// Given a page following the events
	f := serveCrashing(t, keys("k", 2), WithControl(allowAll))
	e := f.follow(t, "")
	e.next(t, "history")
	// When a closed breaker crashes, and another is forced open
	for _, path := range []string{"/api/breakers/k01/crash", "/api/breakers/k02/force-open"} {
		if status, _, body := f.do(t, "POST", path); status != http.StatusOK {
			t.Fatalf("%s: %d %s", path, status, body)
		}
	}
	// Then the page is told of both: the restart, closed to closed, and the trip
	var got []Transition
	for len(got) < 2 {
		var batch []Transition
		e.next(t, "transitions").decodeInto(t, &batch)
		got = append(got, batch...)
	}
	if got[0].Key != "k01" || got[0].From != state.Closed || got[0].To != state.Closed || got[0].Reason != state.ReasonRestarted.String() ||
		got[1].Key != "k02" || got[1].To != state.Open || got[1].Reason != state.ReasonForcedOpen.String() || got[1].Seq != 2 {
		t.Fatalf("%+v", got)
	}
	// and the next rows show them: k02 open on top, k01 restarted once
	for {
		var fr Frame
		e.next(t, "rows").decodeInto(t, &fr)
		byKey := map[string]Row{}
		for _, r := range fr.Rows {
			byKey[r.Key] = r
		}
		if byKey["k02"].State == state.Open && byKey["k01"].Restarts == 1 {
			break
		}
	}
}

func TestAStreamShowsItsPrefixOnly(t *testing.T) {
	// Given a page following the keys that start with "b", at most two
	f := serve(t, append(keys("a", 3), keys("b", 3)...))
	if err := f.reg.ForceOpen(context.Background(), "a01"); err != nil {
		t.Fatal(err)
	}
	e := f.follow(t, "?prefix=b&limit=2")
	// Then its rows and history are of those keys only
	var fr Frame
	e.next(t, "rows").decodeInto(t, &fr)
	var history []Transition
	e.next(t, "history").decodeInto(t, &history)
	if !slices.Equal(order(fr.Rows), []string{"b01", "b02"}) || fr.Matched != 3 || len(history) != 0 {
		t.Fatalf("rows %v matched %d, history %+v", order(fr.Rows), fr.Matched, history)
	}
	// When an "a" key and then a "b" key trip
	for _, k := range []string{"a02", "b03"} {
		if err := f.reg.ForceOpen(context.Background(), k); err != nil {
			t.Fatal(err)
		}
	}
	// Then only the "b" one's transition comes, and it moves to the top, pushing b02 out
	var batch []Transition
	e.next(t, "transitions").decodeInto(t, &batch)
	if len(batch) != 1 || batch[0].Key != "b03" {
		t.Fatalf("%+v", batch)
	}
	for {
		var fr Frame
		e.next(t, "rows").decodeInto(t, &fr)
		if slices.Contains(order(fr.Rows), "b03") {
			if !slices.Equal(fr.Removed, []string{"b02"}) || fr.Rows[0].State != state.Open {
				t.Fatalf("%+v", fr)
			}
			break
		}
	}
}
