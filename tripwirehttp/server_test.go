package tripwirehttp_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwirehttp"
)

// Real time, real sockets: generous bounds, and conditions polled rather
// than slept for.
const (
	patience = 5 * time.Second // the longest a test waits for anything
	poll     = 5 * time.Millisecond
)

// host is an httptest server on 127.0.0.1 whose behaviour a test changes
// as it goes, and which counts what reached it and its connections.
type host struct {
	*httptest.Server
	handler  atomic.Pointer[http.HandlerFunc]
	requests atomic.Int64
	newConns atomic.Int64
	closed   atomic.Int64
}

// newHost starts a host that answers 200 "ok" until told otherwise.
func newHost(t *testing.T) *host {
	t.Helper()
	h := &host{}
	h.set(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") })
	h.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.requests.Add(1)
		(*h.handler.Load())(w, r)
	}))
	h.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			h.newConns.Add(1)
		case http.StateClosed, http.StateHijacked:
			h.closed.Add(1)
		}
	}
	h.Start()
	t.Cleanup(h.Close)
	return h
}

func (h *host) set(f http.HandlerFunc) { h.handler.Store(&f) }

// status makes the host answer every request with code and a body naming it.
func (h *host) status(code int) {
	h.set(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(code)
		_, _ = io.WriteString(w, http.StatusText(code))
	})
}

// reset makes the host reset every connection a request arrives on.
func (h *host) reset() {
	h.set(func(w http.ResponseWriter, _ *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		_ = conn.(*net.TCPConn).SetLinger(0) // RST, not FIN
		_ = conn.Close()
	})
}

// hang makes the host hold every request until its client gives up, and
// report on the channel when each request's context ended.
func (h *host) hang() <-chan time.Time {
	ended := make(chan time.Time, 16)
	h.set(func(_ http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
		ended <- time.Now()
	})
	return ended
}

// rig is a registry in real time and a Transport on it, over an
// http.Transport of the test's own whose idle connections close at the end.
type rig struct {
	reg  *tripwire.Registry
	base *http.Transport
	tr   *tripwirehttp.Transport
}

func newRig(t *testing.T, opts ...tripwirehttp.Option) *rig {
	t.Helper()
	reg := testkit.Start(t, testkit.NewSystem(t))
	base := &http.Transport{}
	t.Cleanup(base.CloseIdleConnections)
	tr, err := tripwirehttp.New(reg, base, opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return &rig{reg: reg, base: base, tr: tr}
}

// get sends a GET for url through the Transport.
func (r *rig) get(t *testing.T, ctx context.Context, url string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r.tr.RoundTrip(req)
}

// read reads and closes a response's body.
func read(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the body of %s: %v", resp.Status, err)
	}
	return string(b)
}

// key is the breaker key of a test server's URL.
func key(t *testing.T, url string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	k, err := tripwirehttp.HostKey(req)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// waitFor polls cond until it holds, failing after patience. It must run
// on the test's goroutine; others use eventually.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if !eventually(cond) {
		t.Fatalf("after %v: %s", patience, what)
	}
}

// eventually polls cond until it holds, or reports false after patience.
func eventually(cond func() bool) bool {
	for end := time.Now().Add(patience); !cond(); time.Sleep(poll) {
		if time.Now().After(end) {
			return false
		}
	}
	return true
}

// wantState checks key's circuit.
func wantState(t *testing.T, reg *tripwire.Registry, key string, want state.State) {
	t.Helper()
	if s, err := reg.State(key); err != nil || s != want {
		t.Fatalf("State(%q) = %v, %v; want %v", key, s, err, want)
	}
}

// body returns n bytes of text.
func body(n int) string { return strings.Repeat("x", n) }
