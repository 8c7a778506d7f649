package dashboard

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tripwire-go/tripwire/state"
)

// errorOf is the error an answer's JSON body says.
func errorOf(t *testing.T, body []byte) string {
	t.Helper()
	var e errorBody
	decode(t, body, &e)
	return e.Error
}

func TestWithoutWithControlTheDashboardIsReadOnly(t *testing.T) {
	// Given a dashboard without WithControl
	f := serve(t, keys("k", 1))
	// When a page asks what it may do, and tries every action
	var in Info
	f.getJSON(t, "/api/info", &in)
	for _, a := range actionNames {
		status, _, body := f.do(t, "POST", "/api/breakers/k01/"+a)
		// Then every action is refused, saying the dashboard is read-only
		if status != http.StatusForbidden || !strings.Contains(errorOf(t, body), "read-only") {
			t.Errorf("%s: %d %s", a, status, body)
		}
	}
	// and the page is told it has no control, and the breaker was not touched
	if in.Control || len(in.Actions) != 0 {
		t.Errorf("info %+v", in)
	}
	if s, err := f.reg.Snapshot(context.Background(), "k01"); err != nil || s.State != state.Closed || s.Restarts != 0 {
		t.Fatalf("%+v %v", s, err)
	}
}

func TestControlIsForTheRequestsTheHookAccepts(t *testing.T) {
	// Given a dashboard whose hook accepts the requests with the header X-Admin: yes
	admin := func(r *http.Request) bool { return r.Header.Get("X-Admin") == "yes" }
	f := serve(t, keys("k", 2), WithControl(admin))
	// When a request the hook refuses asks and acts
	var in Info
	f.getJSON(t, "/api/info", &in)
	status, _, body := f.do(t, "POST", "/api/breakers/k01/force-open")
	// Then it has no control, and is refused
	if in.Control || status != http.StatusForbidden || !strings.Contains(errorOf(t, body), "not authorized") {
		t.Fatalf("info %+v; POST %d %s", in, status, body)
	}
	if st, _ := f.reg.State("k01"); st != state.Closed {
		t.Fatalf("refused, yet %v", st)
	}
	// When an accepted request does each action
	status, _, body = f.do(t, "GET", "/api/info", "X-Admin", "yes")
	decode(t, body, &in)
	if !in.Control || strings.Join(in.Actions, ",") != "force-open,force-close,reset,probe-now" {
		t.Fatalf("admin info %d %+v", status, in)
	}
	for _, tc := range []struct {
		action   string
		state    state.State
		forced   state.Force
		restarts int
	}{
		{"force-open", state.Open, state.ForcedOpen, 0},
		{"probe-now", state.Open, state.ForcedOpen, 0}, // forced open: no probe
		{"reset", state.Closed, state.NotForced, 0},
		{"force-close", state.Closed, state.ForcedClosed, 0},
	} {
		status, _, body := f.do(t, "POST", "/api/breakers/k01/"+tc.action, "X-Admin", "yes")
		// Then it is done, and the answer is the key's row after it
		var r Row
		decode(t, body, &r)
		if status != 200 || r.Key != "k01" || r.State != tc.state || r.Forced != tc.forced || r.Restarts != tc.restarts || r.Snapshot == nil {
			t.Errorf("%s: %d %+v", tc.action, status, r)
		}
	}
	// and the other key was never touched
	if s, _ := f.reg.Snapshot(context.Background(), "k02"); s.State != state.Closed || s.Restarts != 0 {
		t.Fatalf("k02 %+v", s)
	}
}

func TestCrashIsOfferedOnlyWithWithCrash(t *testing.T) {
	// Given a dashboard with control for everyone, without WithCrash
	f := serve(t, keys("k", 1), WithControl(allowAll))
	// When a page asks what it may do, and a crash is asked for
	var in Info
	f.getJSON(t, "/api/info", &in)
	status, _, body := f.do(t, "POST", "/api/breakers/k01/crash")
	// Then crash is not among its actions, and is refused: the breaker did not restart
	if slices.Contains(in.Actions, "crash") || status != http.StatusForbidden || !strings.Contains(errorOf(t, body), "WithCrash") {
		t.Fatalf("actions %v; crash %d %s", in.Actions, status, body)
	}
	if s, _ := f.reg.Snapshot(context.Background(), "k01"); s.Restarts != 0 {
		t.Fatalf("restarts %d", s.Restarts)
	}

	// Given one with WithCrash too
	f = serveCrashing(t, keys("k", 1), WithControl(allowAll))
	// When a page asks, and a crash is asked for
	f.getJSON(t, "/api/info", &in)
	status, _, body = f.do(t, "POST", "/api/breakers/k01/crash")
	// Then crash is offered, last, and done: the row after it has the restart
	var r Row
	decode(t, body, &r)
	if strings.Join(in.Actions, ",") != "force-open,force-close,reset,probe-now,crash" || status != http.StatusOK || r.Restarts != 1 {
		t.Fatalf("actions %v; crash %d %s", in.Actions, status, body)
	}
}
