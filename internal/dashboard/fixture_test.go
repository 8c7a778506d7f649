package dashboard

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/demo"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// fixture is a dashboard over a demo on a registry, served on loopback.
type fixture struct {
	reg *tripwire.Registry
	drv *demo.Driver
	h   *Handler
	srv *httptest.Server
}

// quietConfig is a demo whose dependency never fails and whose breakers,
// once open, stay open for an hour: the tests decide every transition.
func quietConfig() demo.Config {
	cfg := demo.DefaultConfig()
	cfg.Pattern, cfg.FailRate = demo.Flaky, 0
	cfg.Keys, cfg.Callers, cfg.Interval, cfg.Latency = 3, 1, 5*time.Millisecond, time.Millisecond
	cfg.Settings = tripwire.Settings{Threshold: 3, OpenTimeout: time.Hour, CallTimeout: time.Second}
	return cfg
}

// serve starts cfg's demo, with its callers calling if run, and the
// dashboard on an httptest server. Everything stops when the test ends:
// the handler first, so event streams end before the server waits for them.
func serve(t *testing.T, cfg demo.Config, run bool) *fixture {
	t.Helper()
	sys := testkit.NewSystem(t)
	metrics, err := NewMetrics()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = metrics.Shutdown(context.Background()) })
	reg := testkit.Start(t, sys, tripwire.WithMeterProvider(metrics.Provider()))
	drv, err := demo.New(reg, sys, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if run {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); drv.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-done })
	}
	h, err := New(reg, drv, metrics)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Cleanup(h.Close)
	return &fixture{reg: reg, drv: drv, h: h, srv: srv}
}

// do sends a request with no body and returns the status, the headers and
// the body.
func (f *fixture) do(t *testing.T, method, path string, header ...string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, f.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, body
}

// decode unmarshals body into v, failing the test if it is not JSON.
func decode(t *testing.T, body []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, body)
	}
}

// isJSON reports whether the response says it is JSON.
func isJSON(h http.Header) bool {
	return strings.HasPrefix(h.Get("Content-Type"), "application/json")
}

// eventually polls cond every 10 ms until it holds or 10 s have passed.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-deadline.C:
			t.Fatalf("not within 10s: %s", what)
		case <-tick.C:
		}
	}
}
