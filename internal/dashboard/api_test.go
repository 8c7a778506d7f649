package dashboard

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/tripwire-go/tripwire"
)

func TestNewRejectsNilArguments(t *testing.T) {
	// Given a registry, a driver and metrics
	f := serve(t, quietConfig(), false)
	m, err := NewMetrics()
	if err != nil {
		t.Fatal(err)
	}
	// When any of them is missing
	for name, call := range map[string]func() (*Handler, error){
		"registry": func() (*Handler, error) { return New(nil, f.drv, m) },
		"driver":   func() (*Handler, error) { return New(f.reg, nil, m) },
		"metrics":  func() (*Handler, error) { return New(f.reg, f.drv, nil) },
	} {
		h, err := call()
		// Then New refuses it
		if !errors.Is(err, ErrNilArgument) || h != nil {
			t.Errorf("New without %s: %v, %v", name, h, err)
		}
	}
}

func TestListShowsEveryBreakerWithItsCounts(t *testing.T) {
	// Given three keys whose callers call a healthy dependency
	f := serve(t, quietConfig(), true)

	// When the list is read once the callers have had answers
	var rows []map[string]any
	eventually(t, "every key has ok calls", func() bool {
		status, hdr, body := f.do(t, "GET", "/api/breakers")
		if status != http.StatusOK || !isJSON(hdr) {
			t.Fatalf("status %d, %s", status, hdr.Get("Content-Type"))
		}
		decode(t, body, &rows)
		for _, r := range rows {
			if r["ok"].(float64) == 0 {
				return false
			}
		}
		return len(rows) > 0
	})

	// Then it has one closed row per key, in order, with the callers' counts
	// and latencies under the API's names
	if len(rows) != 3 {
		t.Fatalf("%d rows", len(rows))
	}
	for i, r := range rows {
		if r["key"] != []string{"dep-01", "dep-02", "dep-03"}[i] || r["state"] != "closed" {
			t.Errorf("row %d: %v", i, r)
		}
		for _, name := range []string{"failures", "inFlight", "restarts", "calls", "ok", "failed",
			"timeouts", "rejected", "restarted", "p50Ms", "p99Ms", "dependencyDown", "dependencyHits"} {
			if _, ok := r[name]; !ok {
				t.Errorf("row %d has no %q: %v", i, name, r)
			}
		}
		if r["p50Ms"].(float64) <= 0 || r["p99Ms"].(float64) < r["p50Ms"].(float64) || r["calls"].(float64) < r["ok"].(float64) {
			t.Errorf("row %d: latency or counts wrong: %v", i, r)
		}
		if _, ok := r["retryAt"]; ok {
			t.Errorf("row %d: a closed circuit has a retryAt: %v", i, r)
		}
	}
}

func TestOneBreaker(t *testing.T) {
	// Given three keys
	f := serve(t, quietConfig(), false)
	// When one is read
	status, hdr, body := f.do(t, "GET", "/api/breakers/dep-02")
	// Then it is that key's row
	var b Breaker
	decode(t, body, &b)
	if status != http.StatusOK || !isJSON(hdr) || b.Key != "dep-02" || b.State != "closed" {
		t.Fatalf("%d %+v", status, b)
	}
}

func TestActionsChangeTheBreaker(t *testing.T) {
	// Given three closed breakers
	f := serve(t, quietConfig(), false)
	for _, tc := range []struct {
		action, state string
		restarts      int
	}{
		{"force-open", "open", 0},
		{"force-close", "closed", 0},
		{"force-open", "open", 0},
		{"reset", "closed", 0},
		{"force-open", "open", 0},
		{"crash", "closed", 1}, // a crash restarts the breaker closed and ends the forced mode
	} {
		// When an action is posted
		status, hdr, body := f.do(t, "POST", "/api/breakers/dep-01/"+tc.action)
		// Then the answer is the breaker's row after it, as the registry has it
		var b Breaker
		decode(t, body, &b)
		if status != http.StatusOK || !isJSON(hdr) || b.State != tc.state || b.Restarts != tc.restarts {
			t.Fatalf("%s: %d %+v", tc.action, status, b)
		}
		if tc.state == "open" && (b.OpenedAt == nil || b.RetryAt != nil) {
			t.Fatalf("%s: forced open has an openedAt and no retryAt: %+v", tc.action, b)
		}
		snap, err := f.reg.Snapshot("dep-01")
		if err != nil || snap.State.String() != tc.state || snap.Restarts != tc.restarts {
			t.Fatalf("%s: registry says %+v, %v", tc.action, snap, err)
		}
	}
	// and the other keys are untouched
	if st, _ := f.reg.State("dep-02"); st != tripwire.Closed {
		t.Fatalf("dep-02 %v", st)
	}
}

func TestBadRequestsGetJSONErrors(t *testing.T) {
	// Given a dashboard
	f := serve(t, quietConfig(), false)
	long := strings.Repeat("k", tripwire.MaxKeyLen+1)
	for _, tc := range []struct {
		method, path string
		header       []string
		status       int
		allow, error string
	}{
		{"GET", "/api/breakers/nope", nil, 404, "", "unknown key"},
		{"POST", "/api/breakers/nope/crash", nil, 404, "", "unknown key"},
		{"POST", "/api/breakers/nope/force-open", nil, 404, "", "unknown key"},
		{"POST", "/api/breakers/dep-01/explode", nil, 404, "", "unknown action"},
		{"GET", "/api/breakers/%01", nil, 400, "", "invalid key"},
		{"POST", "/api/breakers/" + long + "/reset", nil, 400, "", "invalid key"},
		{"DELETE", "/api/breakers", nil, 405, "GET, HEAD", "method not allowed"},
		{"POST", "/api/breakers/dep-01", nil, 405, "GET, HEAD", "method not allowed"},
		{"GET", "/api/breakers/dep-01/crash", nil, 405, "POST", "method not allowed"},
		{"PUT", "/api/breakers/dep-01/crash", nil, 405, "POST", "method not allowed"},
		{"POST", "/api/events", nil, 405, "GET, HEAD", "method not allowed"},
		{"POST", "/metrics", nil, 405, "GET, HEAD", "method not allowed"},
		{"POST", "/", nil, 405, "GET, HEAD", "method not allowed"},
		{"GET", "/nope", nil, 404, "", "not found"},
		{"GET", "/api/breakers/dep-01/crash/again", nil, 404, "", "not found"},
		{"GET", "/static/", nil, 404, "", "not found"},
		{"POST", "/api/breakers/dep-01/crash", []string{"Sec-Fetch-Site", "cross-site"}, 403, "", "cross-origin"},
		{"POST", "/api/breakers/dep-01/crash", []string{"Origin", "https://evil.example"}, 403, "", "cross-origin"},
	} {
		// When the request is sent
		status, hdr, body := f.do(t, tc.method, tc.path, tc.header...)
		// Then it gets the status and a JSON error that says why
		var e struct{ Error string }
		decode(t, body, &e)
		if status != tc.status || !isJSON(hdr) || !strings.Contains(e.Error, tc.error) || hdr.Get("Allow") != tc.allow {
			t.Errorf("%s %.40s: %d %q allow %q; want %d %q allow %q",
				tc.method, tc.path, status, e.Error, hdr.Get("Allow"), tc.status, tc.error, tc.allow)
		}
	}
	// and nothing was done to the breaker
	if snap, err := f.reg.Snapshot("dep-01"); err != nil || snap.Restarts != 0 || snap.State != tripwire.Closed {
		t.Fatalf("%+v %v", snap, err)
	}
}

func TestAfterShutdownTheAPIAnswers503(t *testing.T) {
	// Given a dashboard whose registry has shut down
	f := serve(t, quietConfig(), false)
	if err := f.reg.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/api/breakers/dep-01", "/api/breakers/dep-01/reset"} {
		method := map[bool]string{true: "POST", false: "GET"}[strings.HasSuffix(path, "reset")]
		// When a breaker is read or reset
		status, _, body := f.do(t, method, path)
		// Then the answer is 503, shut down
		var e struct{ Error string }
		decode(t, body, &e)
		if status != http.StatusServiceUnavailable || !strings.Contains(e.Error, "shut down") {
			t.Errorf("%s %s: %d %q", method, path, status, e.Error)
		}
	}
}

func TestThePageAndItsFilesAreServed(t *testing.T) {
	// Given a dashboard
	f := serve(t, quietConfig(), false)
	for _, tc := range []struct{ path, ctype, contains string }{
		{"/", "text/html", `id="tiles"`},
		{"/static/app.js", "text/javascript", "new EventSource(\"/api/events\")"},
		{"/static/app.css", "text/css", ".tile"},
	} {
		// When the page or one of its files is fetched
		status, hdr, body := f.do(t, "GET", tc.path)
		// Then it is served whole with its type, and from nowhere else
		if status != http.StatusOK || !strings.HasPrefix(hdr.Get("Content-Type"), tc.ctype) ||
			!strings.Contains(string(body), tc.contains) || !strings.Contains(hdr.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s: %d %s %q", tc.path, status, hdr.Get("Content-Type"), hdr.Get("Content-Security-Policy"))
		}
	}
	if status, _, _ := f.do(t, "GET", "/static/nope.js"); status != http.StatusNotFound {
		t.Errorf("missing file: %d", status)
	}
}
