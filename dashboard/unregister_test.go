package dashboard

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// unregistering is a registry on which a key armed goes away as it is
// asked: its next Snapshot or ForceOpen unregisters it, then answers
// ErrShutdown, as the registry answers a key unregistered while its breaker
// was asked (a race too narrow to hit on cue).
// A key armed with back is registered again (by back) before the answer.
type unregistering struct {
	registry
	reg   *tripwire.Registry
	mu    sync.Mutex
	armed map[string]func()
}

func (u *unregistering) arm(key string, back func()) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.armed[key] = back
}

// goes unregisters key if it is armed, and reports whether it did.
func (u *unregistering) goes(key string) bool {
	u.mu.Lock()
	back, armed := u.armed[key]
	delete(u.armed, key)
	u.mu.Unlock()
	if !armed {
		return false
	}
	if err := u.reg.Unregister(context.Background(), key); err != nil {
		panic(err)
	}
	if back != nil {
		back()
	}
	return true
}

func (u *unregistering) Snapshot(ctx context.Context, key string) (tripwire.Snapshot, error) {
	if u.goes(key) {
		return tripwire.Snapshot{}, tripwire.ErrShutdown
	}
	return u.registry.Snapshot(ctx, key)
}

func (u *unregistering) ForceOpen(ctx context.Context, key string) error {
	if u.goes(key) {
		return tripwire.ErrShutdown
	}
	return u.registry.ForceOpen(ctx, key)
}

func TestAKeyUnregisteredWhileAskedIsNotTheRegistryShuttingDown(t *testing.T) {
	// Given a page following three keys, k02 about to be unregistered as its breaker is asked
	var u *unregistering
	wrap := func(reg *tripwire.Registry) registry {
		u = &unregistering{registry: reg, reg: reg, armed: map[string]func(){}}
		return u
	}
	f := serveThrough(t, wrap, keys("k", 3), quiet, WithRefresh(20*time.Millisecond), WithControl(allowAll))
	e := f.follow(t, "")
	var fr Frame
	e.next(t, "rows").decodeInto(t, &fr)
	if got := order(fr.Rows); !slices.Equal(got, []string{"k01", "k02", "k03"}) {
		t.Fatalf("first rows %v", got)
	}
	u.arm("k02", nil)
	// When a refresh asks it
	// Then the page drops it, and goes on: it shows k01 forced open
	for !slices.Contains(fr.Removed, "k02") {
		e.next(t, "rows").decodeInto(t, &fr)
	}
	if err := f.reg.ForceOpen(context.Background(), "k01"); err != nil {
		t.Fatal(err)
	}
	for len(fr.Rows) == 0 || fr.Rows[0].Key != "k01" || fr.Rows[0].State != state.Open {
		e.next(t, "rows").decodeInto(t, &fr)
	}
	// and the list still answers, without k02
	var l List
	f.getJSON(t, "/api/breakers", &l)
	if got := order(l.Rows); !slices.Equal(got, []string{"k01", "k03"}) {
		t.Fatalf("list %v", got)
	}
	// When k03 goes as it is read, and again as it is forced open
	for _, tc := range []struct{ method, path string }{
		{"GET", "/api/breakers/k03"}, {"POST", "/api/breakers/k03/force-open"},
	} {
		registerAgain(t, f, "k03")
		u.arm("k03", nil)
		status, _, body := f.do(t, tc.method, tc.path)
		// Then that answer is 404, unknown key, not 503
		if status != http.StatusNotFound || !strings.Contains(errorOf(t, body), "unknown key") {
			t.Errorf("%s %s: %d %s", tc.method, tc.path, status, body)
		}
	}
	// and the page still follows the registry
	if err := f.reg.ForceClose(context.Background(), "k01"); err != nil {
		t.Fatal(err)
	}
	for len(fr.Rows) == 0 || fr.Rows[0].Key != "k01" || fr.Rows[0].Forced != state.ForcedClosed {
		e.next(t, "rows").decodeInto(t, &fr)
	}

	// When k01 goes as a refresh asks it, and is registered again before the answer
	u.arm("k01", func() { registerAgain(t, f, "k01") })
	// Then the page goes on, and shows k01 again as it is now: closed, not forced
	for len(fr.Rows) == 0 || fr.Rows[0].Key != "k01" || fr.Rows[0].Forced != state.NotForced {
		e.next(t, "rows").decodeInto(t, &fr)
	}
	if status, _, body := f.do(t, "GET", "/api/breakers"); status != http.StatusOK {
		t.Fatalf("list %d %s", status, body)
	}
}

// registerAgain registers key on the fixture's registry again, if it
// has not got it.
func registerAgain(t *testing.T, f *fixture, key string) {
	t.Helper()
	if _, err := f.reg.State(key); errors.Is(err, tripwire.ErrUnknownKey) {
		if err := f.reg.Register(context.Background(), key, f.dep.target(key), quiet); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStateTellsShutdownFromUnregister(t *testing.T) {
	// settle relies on it: State is ErrUnknownKey for a key unregistered,
	// and ErrShutdown for any key once the registry has shut down.
	f := serve(t, keys("k", 2))
	if err := f.reg.Unregister(context.Background(), "k01"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.reg.State("k01"); !errors.Is(err, tripwire.ErrUnknownKey) {
		t.Fatalf("after Unregister: %v", err)
	}
	if shutDown(f.reg) {
		t.Fatal("shut down, before Shutdown")
	}
	if err := f.reg.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"k01", "k02", probeKey} {
		if _, err := f.reg.State(k); !errors.Is(err, tripwire.ErrShutdown) {
			t.Errorf("State(%q) after Shutdown: %v", k, err)
		}
	}
	if !shutDown(f.reg) {
		t.Fatal("not shut down, after Shutdown")
	}
}

func TestACrashFuncsErrShutdownIsAnsweredAsIs(t *testing.T) {
	// Given a dashboard whose crash func says the run is over, as tripwire
	// serve -soak's does once its load has ended (ErrShutdown, the registry
	// running on)
	f := serve(t, keys("k", 1), WithControl(allowAll), WithCrash(func(context.Context, string) error {
		return fmt.Errorf("%w: the soak is over", tripwire.ErrShutdown)
	}))
	// When a crash is asked for
	status, _, body := f.do(t, "POST", "/api/breakers/k01/crash")
	// Then it is 503 with that error, not a 404 for a key unregistered while asked
	if status != http.StatusServiceUnavailable || !strings.Contains(errorOf(t, body), "the soak is over") {
		t.Fatalf("%d %s", status, body)
	}
}
