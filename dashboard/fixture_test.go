package dashboard

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// fixture is a dashboard over a registry of keys whose dependency fails on
// cue, served on loopback.
type fixture struct {
	reg *tripwire.Registry
	dep *dependency
	h   *Handler
	srv *httptest.Server
}

// dependency answers every key's calls, or fails those of the keys down
// and one in flaky[key] of the others; with a latency, each call takes
// from half of it to one and a half.
type dependency struct {
	mu      sync.Mutex
	down    map[string]bool
	flaky   map[string]int
	calls   map[string]int
	latency time.Duration
}

var errDown = errors.New("dependency down")

func newDependency() *dependency {
	return &dependency{down: map[string]bool{}, flaky: map[string]int{}, calls: map[string]int{}}
}

func (d *dependency) set(key string, down bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.down[key] = down
}

func (d *dependency) target(key string) tripwire.Target {
	return tripwire.Func(func(ctx context.Context, msg any) (any, error) {
		d.mu.Lock()
		d.calls[key]++
		down, lat := d.down[key], d.latency
		if n := d.flaky[key]; n > 0 && d.calls[key]%n == 0 {
			down = true
		}
		d.mu.Unlock()
		if lat > 0 {
			time.Sleep(lat/2 + rand.N(lat))
		}
		if down {
			return nil, errDown
		}
		return msg, nil
	})
}

// quiet are settings whose circuits, once open, stay open for an hour:
// the tests decide every transition.
var quiet = tripwire.Settings{Threshold: 3, OpenTimeout: time.Hour, CallTimeout: time.Second}

// keys returns n keys named prefix01, prefix02, ... (as many digits as n
// has, two at least), so their order is their number's.
func keys(prefix string, n int) []string {
	width := max(len(fmt.Sprint(n)), 2)
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%0*d", prefix, width, i+1)
	}
	return out
}

// serve registers names on a fresh registry and serves its dashboard with
// opts on an httptest server. Everything stops when the test ends: the
// handler first, so event streams end before the server waits for them.
func serve(t testing.TB, names []string, opts ...Option) *fixture {
	t.Helper()
	return serveWith(t, names, quiet, opts...)
}

// serveCrashing is serve with the crash action offered: WithCrash with
// the fixture's registry's Crash.
func serveCrashing(t testing.TB, names []string, opts ...Option) *fixture {
	t.Helper()
	var reg atomic.Pointer[tripwire.Registry]
	f := serve(t, names, append(opts, WithCrash(func(ctx context.Context, key string) error { return tripwiretest.Crash(ctx, reg.Load(), key) }))...)
	reg.Store(f.reg)
	return f
}

// serveWith is serve with the keys' settings.
func serveWith(t testing.TB, names []string, s tripwire.Settings, opts ...Option) *fixture {
	t.Helper()
	return serveThrough(t, nil, names, s, opts...)
}

// serveThrough is serveWith with the dashboard on wrap(reg) rather than on
// the registry itself (nil: on it).
func serveThrough(t testing.TB, wrap func(*tripwire.Registry) registry, names []string, s tripwire.Settings, opts ...Option) *fixture {
	t.Helper()
	reg := testkit.Start(t, testkit.NewSystem(t))
	f := &fixture{reg: reg, dep: newDependency()}
	for _, k := range names {
		testkit.Register(t, reg, k, f.dep.target(k), s)
	}
	var src registry = reg
	if wrap != nil {
		src = wrap(reg)
	}
	h, err := newHandler(src, opts...)
	if err != nil {
		t.Fatal(err)
	}
	f.h = h
	f.srv = httptest.NewServer(h)
	t.Cleanup(f.srv.Close)
	t.Cleanup(h.Close)
	return f
}

// call calls key n times, ignoring what it answers.
func (f *fixture) call(t testing.TB, key string, n int) {
	t.Helper()
	for range n {
		_, _ = f.reg.Call(t.Context(), key, "ping")
	}
}

// allowAll is an authorization hook that accepts every request.
func allowAll(*http.Request) bool { return true }
