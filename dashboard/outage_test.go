package dashboard

import (
	"net/http/httptest"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

// openSnap is k's snapshot, open since at (re-opened there), after reopens
// re-opens since it left closed.
func openSnap(at time.Duration, reopens int, forced state.Force) tripwire.Snapshot {
	return tripwire.Snapshot{Key: "k", State: state.Open, Forced: forced, Reason: state.ReasonProbeFailed,
		Since: t0.Add(at), OpenedAt: t0.Add(at), Reopens: reopens}
}

func TestAnOutageLastsFromWhenTheCircuitLeftClosed(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		name    string
		seen    []state.Transition // what the board saw, from t0+0
		snap    tripwire.Snapshot
		since   time.Duration
		atLeast bool
	}{
		{"the trip seen, then re-opens", []state.Transition{
			tr("k", state.Closed, state.Open, state.ReasonThreshold, 10*s),
			tr("k", state.Open, state.HalfOpen, state.ReasonOpenTimeout, 20*s),
			tr("k", state.HalfOpen, state.Open, state.ReasonProbeFailed, 21*s),
		}, openSnap(41*s, 2, state.NotForced), 10 * s, false},
		{"not re-opened since the trip", nil, openSnap(30*s, 0, state.NotForced), 30 * s, false},
		{"re-opened, the trip unseen", nil, openSnap(30*s, 3, state.NotForced), 0, true},
		{"forced open, unseen", nil, openSnap(30*s, 0, state.ForcedOpen), 0, true},
		{"re-opened before the board began to follow", nil, openSnap(-30*s, 3, state.NotForced), -30 * s, true},
		{"a re-open seen, the trip not", []state.Transition{
			tr("k", state.HalfOpen, state.Open, state.ReasonProbeFailed, 5*s),
		}, openSnap(5*s, 4, state.NotForced), 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Given a board that began to follow at t0, and saw the transitions
			b := bareBoard("k")
			b.from = t0
			for _, x := range tc.seen {
				b.note(x)
			}
			// When it takes the key's snapshot in
			r := b.apply(tc.snap, tc.snap.Since.UnixNano(), t0.Add(time.Hour), true)
			// Then the row says when the outage began, and whether it began then or earlier
			if !r.DownSince.Equal(t0.Add(tc.since)) || r.DownAtLeast != tc.atLeast {
				t.Fatalf("down since %v (at least: %v), want %v (%v)", r.DownSince.Sub(t0), r.DownAtLeast, tc.since, tc.atLeast)
			}
		})
	}
}

func TestAClosedCircuitHasNoOutage(t *testing.T) {
	// Given a board that saw k trip at +10 s
	b := bareBoard("k")
	b.from = t0
	b.note(tr("k", state.Closed, state.Open, state.ReasonThreshold, 10*time.Second))
	// When a snapshot after it says it closed, with failures left in its window
	closed := tripwire.Snapshot{Key: "k", State: state.Closed, Reason: state.ReasonProbeSucceeded, Since: t0.Add(20 * time.Second)}
	closed.Stats.Recent.Failures = 3
	r := b.apply(closed, t0.Add(21*time.Second).UnixNano(), t0.Add(21*time.Second), true)
	// Then its row has no outage
	if !r.DownSince.IsZero() || r.DownAtLeast {
		t.Fatalf("closed, yet down since %v", r.DownSince)
	}
	// and when it re-opens unseen, the old trip is not its outage's start
	r = b.apply(openSnap(40*time.Second, 2, state.NotForced), t0.Add(41*time.Second).UnixNano(), t0.Add(41*time.Second), true)
	if !r.DownSince.Equal(t0) || !r.DownAtLeast {
		t.Fatalf("down since %v (at least: %v)", r.DownSince.Sub(t0), r.DownAtLeast)
	}
}

func TestARowSaysHowLongTheOutageHasLastedNotSinceTheLastReopen(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a dashboard of a key whose dependency is down, opening at the first failure
		dep := newDependency()
		dep.set("k", true)
		testkit.Register(t, e.Reg, "k", dep.target("k"), tripwire.Settings{Threshold: 1, OpenTimeout: time.Second, CallTimeout: time.Second})
		h, err := New(e.Reg)
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		// When it trips, then fails its probe three times, a second and a half apart
		_, _ = e.Reg.Call(t.Context(), "k", "ping")
		tripped := time.Now()
		for range 3 {
			time.Sleep(1500 * time.Millisecond)
			synctest.Wait()
			_, _ = e.Reg.Call(t.Context(), "k", "ping")
		}
		synctest.Wait()
		// Then its row has been open for a moment, but down since the trip
		var r Row
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/breakers/k", nil))
		decode(t, rec.Body.Bytes(), &r)
		if r.State != state.Open || r.Snapshot.Reopens != 3 || !r.Since.After(tripped.Add(4*time.Second)) {
			t.Fatalf("not re-opened as planned: %+v", r)
		}
		if !r.DownSince.Equal(tripped.UTC()) || r.DownAtLeast {
			t.Fatalf("down since %v (at least: %v), tripped at %v", r.DownSince, r.DownAtLeast, tripped.UTC())
		}
	})
}
