package dashboard

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestStreamsEndWhenTheHandlerClosesAndNewOnesAreRefused(t *testing.T) {
	// Given two pages following the events, then k01 forced open
	f := serve(t, keys("k", 2))
	a, b := f.follow(t, ""), f.follow(t, "")
	a.next(t, "history")
	b.next(t, "history")
	if err := f.reg.ForceOpen(context.Background(), "k01"); err != nil {
		t.Fatal(err)
	}
	// When the handler is closed (the server is shutting down)
	f.h.Close()
	// Then both streams send what changed, "end", and end
	for _, e := range []*events{a, b} {
		if names := e.waitEnd(t); len(names) == 0 || names[len(names)-1] != "end" || !slices.Contains(names, "rows") {
			t.Errorf("last events %v", names)
		}
	}
	// and a page that connects now is told the server is stopping
	status, hdr, body := f.do(t, "GET", "/api/events")
	if status != http.StatusServiceUnavailable || !isJSON(hdr) || !strings.Contains(errorOf(t, body), "closed") {
		t.Fatalf("%d %s", status, body)
	}
}

func TestAStreamLeavesWhenItsClientGoes(t *testing.T) {
	// Given a page following the events
	f := serve(t, keys("k", 1))
	e := f.follow(t, "")
	e.next(t, "history")
	if n := f.h.board.viewCount(); n != 1 {
		t.Fatalf("%d views", n)
	}
	// When the page goes away
	e.stop()
	// Then its stream stops following the board and the journal
	eventually(t, "the view left", func() bool { return f.h.board.viewCount() == 0 && followers(f.h.journal) == 0 })
}

func followers(j *journal) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.followers)
}

func (b *board) viewCount() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.views)
}

func TestAStreamEndsWhenTheRegistryShutsDown(t *testing.T) {
	// Given a page following the events
	f := serve(t, keys("k", 2), WithRefresh(20*time.Millisecond))
	e := f.follow(t, "")
	e.next(t, "history")
	// When the registry shuts down under it
	if err := f.reg.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	// Then the stream says "end" and ends
	if names := e.waitEnd(t); len(names) == 0 || names[len(names)-1] != "end" {
		t.Fatalf("last events %v", names)
	}
}

func TestAClosedHandlerStillAnswersTheAPI(t *testing.T) {
	// Given a dashboard whose list was read once, then closed
	f := serve(t, keys("k", 2))
	var l List
	f.getJSON(t, "/api/breakers", &l)
	f.h.Close()
	// When the list and a key are read again, many times
	for range 50 {
		// Then they answer, from the registry as it is now
		f.getJSON(t, "/api/breakers", &l)
		if len(l.Rows) != 2 {
			t.Fatalf("%+v", l)
		}
	}
	var r Row
	f.getJSON(t, "/api/breakers/k01", &r)
}

func TestAListAfterCloseBeforeAnyCensusIsAnswered(t *testing.T) {
	// Given a dashboard closed before anyone looked (no census yet), k02 forced open
	f := serve(t, keys("k", 3))
	if err := f.reg.ForceOpen(context.Background(), "k02"); err != nil {
		t.Fatal(err)
	}
	f.h.Close()
	// When the keys are listed, by two at once
	type answer struct {
		status int
		list   List
		err    error
	}
	answers := make(chan answer, 2)
	for range 2 {
		go func() {
			var a answer
			resp, err := f.srv.Client().Get(f.srv.URL + "/api/breakers")
			if a.err = err; err == nil {
				defer resp.Body.Close()
				a.status, a.err = resp.StatusCode, json.NewDecoder(resp.Body).Decode(&a.list)
			}
			answers <- a
		}()
	}
	// Then each gets every key, worst first, as the rest of the API answers after Close
	for range 2 {
		a := <-answers
		if l := a.list; a.err != nil || a.status != http.StatusOK || l.Matched != 3 ||
			!slices.Equal(order(l.Rows), []string{"k02", "k01", "k03"}) || l.Summary.Open != 1 {
			t.Errorf("%d %v %+v", a.status, a.err, l)
		}
	}
}
