package dashboard

import (
	"context"
	"io"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/soak"
)

// soakFixture is a dashboard over a soak run, served on loopback from the
// run's Watch: it starts before the load and stops after it, before the
// registry shuts down.
type soakFixture struct {
	*fixture
	live   *soak.Live
	cancel context.CancelFunc
	done   chan soakResult
	result *soakResult
}

type soakResult struct {
	rep soak.Report
	err error
}

// quietSoak is a small soak that crashes no breaker by itself (so the
// tests count the crashes) and runs until the test ends it.
func quietSoak() soak.Config {
	cfg := soak.Defaults()
	cfg.Callers, cfg.Askers, cfg.Keys, cfg.ActorEvery = 4, 1, 4, 2
	cfg.Duration = time.Minute
	cfg.CrashEvery = 0
	cfg.KillTargets = false
	return cfg
}

// serveSoak starts cfg's run with the dashboard on an httptest server.
// atStop, if set, runs when the load is over, before the dashboard stops;
// it runs on the run's goroutine, so it must not fail the test itself.
// finish ends the run; the test's end does too.
func serveSoak(t *testing.T, cfg soak.Config, atStop func(*fixture)) *soakFixture {
	t.Helper()
	metrics, err := NewMetrics()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = metrics.Shutdown(context.Background()) })
	cfg.Options = append(cfg.Options, tripwire.WithMeterProvider(metrics.Provider()))
	type setup struct {
		f    *fixture
		live *soak.Live
		err  error
	}
	ready := make(chan setup, 1)
	cfg.Watch = func(l *soak.Live) func() {
		src, err := FromSoak(l)
		var h *Handler
		if err == nil {
			h, err = New(l.Registry(), src, metrics)
		}
		if err != nil {
			ready <- setup{err: err}
			return nil
		}
		srv := httptest.NewServer(h)
		f := &fixture{reg: l.Registry(), h: h, srv: srv}
		ready <- setup{f: f, live: l}
		return func() {
			if atStop != nil {
				atStop(f)
			}
			h.Close()
			srv.Close()
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &soakFixture{cancel: cancel, done: make(chan soakResult, 1)}
	go func() {
		rep, err := soak.Run(ctx, cfg)
		s.done <- soakResult{rep, err}
	}()
	t.Cleanup(func() { s.finish(t) })
	select {
	case st := <-ready:
		if st.err != nil {
			t.Fatal(st.err)
		}
		s.fixture, s.live = st.f, st.live
	case r := <-s.done:
		s.result = &r
		t.Fatalf("the soak ended before its dashboard started: %v", r.err)
	}
	return s
}

// finish ends the load and returns the run's report, failing the test if
// the run did not start or does not end within 30 s.
func (s *soakFixture) finish(t *testing.T) soak.Report {
	t.Helper()
	s.cancel()
	if s.result == nil {
		select {
		case r := <-s.done:
			s.result = &r
		case <-time.After(30 * time.Second):
			t.Fatal("the soak did not end within 30s")
		}
	}
	if s.result.err != nil {
		t.Fatalf("soak.Run: %v", s.result.err)
	}
	return s.result.rep
}

// post sends a POST with no body from another goroutine than the test's,
// and returns the status and the body (0 and the error if it failed).
func post(f *fixture, path string) (int, string) {
	resp, err := f.srv.Client().Post(f.srv.URL+path, "", nil)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err.Error()
	}
	return resp.StatusCode, string(body)
}

// nextOf returns the next event named one of names, skipping others,
// within 10 s.
func (e *events) nextOf(t *testing.T, names ...string) sse {
	t.Helper()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for {
		select {
		case ev := <-e.ch:
			if slices.Contains(names, ev.name) {
				return ev
			}
		case <-e.ended:
			t.Fatalf("stream ended before a %q event", names)
		case <-deadline.C:
			t.Fatalf("no %q event within 10s", names)
		}
	}
}
