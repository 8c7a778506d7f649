package dashboard

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/tripwire-go/tripwire/state"
)

func TestBadRequestsGetJSONErrors(t *testing.T) {
	// Given a dashboard with control, crash included
	f := serveCrashing(t, keys("k", 1), WithControl(allowAll))
	long := strings.Repeat("k", 256+1)
	for _, tc := range []struct {
		method, path string
		status       int
		allow, error string
	}{
		{"GET", "/api/breakers/nope", 404, "", "unknown key"},
		{"POST", "/api/breakers/nope/crash", 404, "", "unknown key"},
		{"POST", "/api/breakers/nope/force-open", 404, "", "unknown key"},
		{"POST", "/api/breakers/k01/explode", 404, "", "unknown action"},
		{"GET", "/api/breakers/%01", 400, "", "invalid key"},
		{"POST", "/api/breakers/" + long + "/reset", 400, "", "invalid key"},
		{"DELETE", "/api/breakers", 405, "GET, HEAD", "method not allowed"},
		{"POST", "/api/breakers/k01", 405, "GET, HEAD", "method not allowed"},
		{"GET", "/api/breakers/k01/crash", 405, "POST", "method not allowed"},
		{"PUT", "/api/breakers/k01/crash", 405, "POST", "method not allowed"},
		{"POST", "/api/events", 405, "GET, HEAD", "method not allowed"},
		{"POST", "/api/info", 405, "GET, HEAD", "method not allowed"},
		{"POST", "/", 405, "GET, HEAD", "method not allowed"},
		{"GET", "/nope", 404, "", "not found"},
		{"GET", "/metrics", 404, "", "not found"},
		{"GET", "/api/breakers/k01/crash/again", 404, "", "not found"},
		{"GET", "/api/events?limit=5000", 400, "", "bad query"},
		{"GET", "/api/transitions?state=x", 400, "", "bad query"},
		// a query it cannot read: the filter is not dropped for the defaults
		{"GET", "/api/breakers?limit=%zz", 400, "", "bad query"},
		{"GET", "/api/breakers?prefix=svc%", 400, "", "bad query"},
		{"GET", "/api/transitions?limit=%zz", 400, "", "bad query"},
		{"GET", "/api/transitions?prefix=svc%&state=open", 400, "", "bad query"},
		{"GET", "/api/breakers?prefix=a;state=open", 400, "", "bad query"},
		{"GET", "/api/events?prefix=svc%", 400, "", "bad query"}, // last: without the check it hangs
	} {
		// When the request is sent
		status, hdr, body := f.do(t, tc.method, tc.path)
		// Then it gets the status and a JSON error that says why
		if e := errorOf(t, body); status != tc.status || !isJSON(hdr) || !strings.Contains(e, tc.error) || hdr.Get("Allow") != tc.allow {
			t.Errorf("%s %.40s: %d %q allow %q; want %d %q allow %q",
				tc.method, tc.path, status, e, hdr.Get("Allow"), tc.status, tc.error, tc.allow)
		}
	}
	// and nothing was done to the breaker
	if s, err := f.reg.Snapshot(context.Background(), "k01"); err != nil || s.Restarts != 0 || s.State != state.Closed {
		t.Fatalf("%+v %v", s, err)
	}
}

func TestMetricsAreServedOnlyWithWithMetrics(t *testing.T) {
	// Given a dashboard given a metrics handler
	metrics := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("tripwire_calls_total 1\n")) })
	f := serve(t, keys("k", 1), WithMetrics(metrics))
	// When /metrics is scraped
	status, _, body := f.do(t, "GET", "/metrics")
	// Then it is that handler's, and the page is told to link it
	var in Info
	f.getJSON(t, "/api/info", &in)
	if status != 200 || string(body) != "tripwire_calls_total 1\n" || !in.Metrics {
		t.Fatalf("%d %q %+v", status, body, in)
	}
}

func TestAfterShutdownTheAPIAnswers503(t *testing.T) {
	// Given a dashboard whose registry has shut down
	f := serve(t, keys("k", 1), WithControl(allowAll))
	if err := f.reg.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ method, path string }{
		{"GET", "/api/breakers/k01"}, {"POST", "/api/breakers/k01/reset"}, {"GET", "/api/breakers"}, {"GET", "/api/events"},
		{"GET", "/api/transitions"},
	} {
		// When a breaker is read or reset, the list or the transitions read or a stream asked for
		status, _, body := f.do(t, tc.method, tc.path)
		// Then the answer is 503, shut down
		if status != http.StatusServiceUnavailable || !strings.Contains(errorOf(t, body), "shut down") {
			t.Errorf("%s %s: %d %s", tc.method, tc.path, status, body)
		}
	}
	// and the page still loads, to say so
	if status, _, _ := f.do(t, "GET", "/"); status != 200 {
		t.Fatalf("page %d", status)
	}
}
