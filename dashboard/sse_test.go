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

// decodeInto unmarshals the event's data into v, failing the test if it is
// not JSON.
func (e sse) decodeInto(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(e.data), v); err != nil {
		t.Fatalf("%s: %v\n%s", e.name, err, e.data)
	}
}

// parseEvents reads server-sent events from sc, handing each to put until
// it returns false or the stream ends.
func parseEvents(sc *bufio.Scanner, put func(sse) bool) {
	sc.Buffer(nil, 4<<20)
	var ev sse
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			ev.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			ev.data = strings.TrimPrefix(line, "data: ")
		case line == "" && ev.name != "":
			if !put(ev) {
				return
			}
			ev = sse{}
		}
	}
}

// events is a client of api/events over HTTP: the events arrive on ch;
// ended is closed when the stream ends (the server closed it, or stop).
type events struct {
	ch    chan sse
	ended chan struct{}
	stop  context.CancelFunc
}

// follow opens api/events with query and reads it until the stream ends or
// the test does.
func (f *fixture) follow(t *testing.T, query string) *events {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", f.srv.URL+"/api/events"+query, nil)
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
		parseEvents(bufio.NewScanner(resp.Body), func(ev sse) bool {
			select {
			case e.ch <- ev:
				return true
			case <-ctx.Done():
				return false
			}
		})
	}()
	t.Cleanup(func() { stop(); <-e.ended })
	return e
}

// next returns the next event named name, skipping others, within
// hangBound.
func (e *events) next(t *testing.T, name string) sse {
	t.Helper()
	deadline := time.NewTimer(hangBound)
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
			t.Fatalf("no %q event within %v", name, hangBound)
		}
	}
}

// waitEnd reads the events left until the stream ends, for hangBound at
// most, and returns their names.
func (e *events) waitEnd(t *testing.T) []string {
	t.Helper()
	deadline := time.NewTimer(hangBound)
	defer deadline.Stop()
	var names []string
	for {
		select {
		case ev := <-e.ch:
			names = append(names, ev.name)
		case <-e.ended:
			return names
		case <-deadline.C:
			t.Fatalf("stream still open after %v", hangBound)
		}
	}
}
