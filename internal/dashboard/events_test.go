package dashboard

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// sse is one server-sent event.
type sse struct {
	name string
	data string
}

// events is a client of /api/events: the events arrive on ch; ended is
// closed when the stream ends (the server closed it, or stop was called).
type events struct {
	ch    chan sse
	ended chan struct{}
	stop  context.CancelFunc
}

// follow opens /api/events and reads it until the stream ends or the test
// does.
func (f *fixture) follow(t *testing.T) *events {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", f.srv.URL+"/api/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	e := &events{ch: make(chan sse), ended: make(chan struct{}), stop: stop}
	go func() {
		defer close(e.ended)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		var ev sse
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.data = strings.TrimPrefix(line, "data: ")
			case line == "" && ev.name != "":
				select {
				case e.ch <- ev:
				case <-ctx.Done():
					return
				}
				ev = sse{}
			}
		}
	}()
	t.Cleanup(func() { stop(); <-e.ended })
	return e
}

// next returns the next event named name, skipping others, within 10 s.
func (e *events) next(t *testing.T, name string) sse {
	t.Helper()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for {
		select {
		case ev := <-e.ch:
			if ev.name == name {
				return ev
			}
		case <-e.ended:
			t.Fatalf("stream ended before a %q event", name)
		case <-deadline.C:
			t.Fatalf("no %q event within 10s", name)
		}
	}
}

// waitEnd reads the events left until the stream ends, for 10 s at most.
func (e *events) waitEnd(t *testing.T) {
	t.Helper()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for {
		select {
		case <-e.ch:
		case <-e.ended:
			return
		case <-deadline.C:
			t.Fatal("stream still open after 10s")
		}
	}
}

func TestEventsStartWithRowsAndHistory(t *testing.T) {
	// Given a breaker that was forced open before the page connected
	f := serve(t, quietConfig(), false)
	if err := f.reg.ForceOpen("dep-03"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the journal has the transition", func() bool { return len(f.h.journal.history()) == 1 })

	// When a page connects
	e := f.follow(t)

	// Then it gets every row at once, and the transition it missed
	var rows []Breaker
	if err := json.Unmarshal([]byte(e.next(t, "breakers").data), &rows); err != nil || len(rows) != 3 || rows[2].State != "open" {
		t.Fatalf("%v %+v", err, rows)
	}
	var history []Transition
	if err := json.Unmarshal([]byte(e.next(t, "history").data), &history); err != nil || len(history) != 1 ||
		history[0].Key != "dep-03" || history[0].Reason != "forced_open" || history[0].Seq != 1 {
		t.Fatalf("%v %+v", err, history)
	}
	// and the rows again, every sampling period
	e.next(t, "breakers")
}

func TestEventsDeliverATransitionAsItHappens(t *testing.T) {
	// Given a page following the events of a running demo
	f := serve(t, quietConfig(), true)
	e := f.follow(t)
	e.next(t, "history")

	// When a breaker is forced open through the API
	if status, _, _ := f.do(t, "POST", "/api/breakers/dep-02/force-open"); status != http.StatusOK {
		t.Fatal(status)
	}

	// Then the page is told: dep-02 went from closed to open, forced
	var tr Transition
	if err := json.Unmarshal([]byte(e.next(t, "transition").data), &tr); err != nil {
		t.Fatal(err)
	}
	if tr.Key != "dep-02" || tr.From != "closed" || tr.To != "open" || tr.Reason != "forced_open" || tr.At.IsZero() || tr.Seq != 1 {
		t.Fatalf("%+v", tr)
	}
	// and the next rows show it open
	for {
		var rows []Breaker
		if err := json.Unmarshal([]byte(e.next(t, "breakers").data), &rows); err != nil {
			t.Fatal(err)
		}
		if rows[1].State == "open" {
			break
		}
	}
}

func TestEventStreamsEndWhenTheHandlerCloses(t *testing.T) {
	// Given two pages following the events
	f := serve(t, quietConfig(), false)
	a, b := f.follow(t), f.follow(t)
	a.next(t, "breakers")
	b.next(t, "breakers")

	// When the handler is closed (the server is shutting down)
	f.h.Close()

	// Then both streams end, and the handler no longer follows the registry
	for _, e := range []*events{a, b} {
		e.waitEnd(t)
	}
	eventually(t, "no followers left", func() bool { return followers(f.h) == 0 })
	f.h.Close() // a second Close does nothing
}

func TestAStreamLeavesWhenItsClientGoes(t *testing.T) {
	// Given a page following the events
	f := serve(t, quietConfig(), false)
	e := f.follow(t)
	e.next(t, "breakers")
	if n := followers(f.h); n != 1 {
		t.Fatalf("%d followers", n)
	}
	// When the page goes away
	e.stop()
	// Then its stream stops following the journal
	eventually(t, "the follower left", func() bool { return followers(f.h) == 0 })
}

func followers(h *Handler) int {
	h.journal.mu.Lock()
	defer h.journal.mu.Unlock()
	return len(h.journal.followers)
}

func TestTransitionsListsTheRecentOnesOldestFirst(t *testing.T) {
	// Given a breaker forced open, then reset
	f := serve(t, quietConfig(), false)
	for _, do := range []func(string) error{f.reg.ForceOpen, f.reg.Reset} {
		if err := do("dep-01"); err != nil {
			t.Fatal(err)
		}
	}
	// When the transitions are read
	var list []Transition
	eventually(t, "two transitions", func() bool {
		_, _, body := f.do(t, "GET", "/api/transitions")
		decode(t, body, &list)
		return len(list) == 2
	})
	// Then they are both, in order
	if list[0].Reason != "forced_open" || list[1].Reason != "reset" || list[1].From != "open" || list[1].To != "closed" ||
		list[0].Seq != 1 || list[1].Seq != 2 {
		t.Fatalf("%+v", list)
	}
}

func TestAClosingHandlerSendsTheLastRowsThenEndAndRefusesNewStreams(t *testing.T) {
	// Given a page following the events, dep-01 forced open
	f := serve(t, quietConfig(), false)
	e := f.follow(t)
	e.next(t, "history")
	if err := f.reg.ForceOpen("dep-01"); err != nil {
		t.Fatal(err)
	}
	// When the handler is closed
	f.h.Close()
	// Then the stream sends every row as it is now, then "end", and ends
	var rows []Breaker
	if err := json.Unmarshal([]byte(e.nextOf(t, "breakers", "end").data), &rows); err != nil ||
		len(rows) != 3 || rows[0].State != "open" {
		t.Fatalf("%v %+v", err, rows)
	}
	if ev := e.nextOf(t, "breakers", "end"); ev.name != "end" || ev.data != "null" {
		t.Fatalf("after the last rows: %+v", ev)
	}
	e.waitEnd(t)
	// And a page that connects now is told the server is stopping
	status, hdr, body := f.do(t, "GET", "/api/events")
	var eb struct{ Error string }
	decode(t, body, &eb)
	if status != http.StatusServiceUnavailable || !isJSON(hdr) || !strings.Contains(eb.Error, "closed") {
		t.Fatalf("%d %s %q", status, hdr.Get("Content-Type"), eb.Error)
	}
}
