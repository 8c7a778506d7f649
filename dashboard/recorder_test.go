package dashboard

import (
	"bufio"
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

// recorder is an event stream served in a test's goroutines, with no
// network: what works in a synctest bubble. It keeps every event written.
type recorder struct {
	hdr    http.Header
	mu     sync.Mutex
	buf    bytes.Buffer
	writes []time.Time // when each write came
}

func (r *recorder) Header() http.Header { return r.hdr }
func (r *recorder) WriteHeader(int)     {}
func (r *recorder) Flush()              {}
func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.writes = append(r.writes, time.Now())
	return r.buf.Write(p)
}

// writeTimes returns when each write came so far.
func (r *recorder) writeTimes() []time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Time(nil), r.writes...)
}

// events returns the events written so far.
func (r *recorder) events() []sse {
	r.mu.Lock()
	text := append([]byte(nil), r.buf.Bytes()...)
	r.mu.Unlock()
	var out []sse
	parseEvents(bufio.NewScanner(bytes.NewReader(text)), func(e sse) bool { out = append(out, e); return true })
	return out
}

// record serves api/events with query on h in a goroutine; the stream ends
// when the test ends (or stop).
func record(t *testing.T, h *Handler, query string) (rec *recorder, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequestWithContext(ctx, "GET", "/api/events"+query, nil)
	rec = &recorder{hdr: http.Header{}}
	done := make(chan struct{})
	go func() { defer close(done); h.ServeHTTP(rec, req) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	return rec, stop
}

// named returns the events called name among evs.
func named(evs []sse, name string) []sse {
	var out []sse
	for _, e := range evs {
		if e.name == name {
			out = append(out, e)
		}
	}
	return out
}

// page is a Handler on reg with a page's event stream recorded; stop ends
// the stream, then the handler.
func page(t *testing.T, reg *tripwire.Registry) (rec *recorder, stop func()) {
	t.Helper()
	h, err := New(reg)
	if err != nil {
		t.Fatal(err)
	}
	rec, end := record(t, h, "")
	return rec, func() { end(); h.Close() }
}
