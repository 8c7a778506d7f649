package grafana

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

const dashboardFile = "../../docs/grafana/tripwire.json"

var errDown = errors.New("down")

// target answers "ok", fails "fail", and holds "hang" until its call is
// given up.
var target = tripwire.Func(func(ctx context.Context, msg any) (any, error) {
	switch msg {
	case "fail":
		return nil, errDown
	case "hang":
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return "ok", nil
})

// scrapeAfterEveryKindOfCall runs a registry with the OTel Prometheus
// exporter, as docs/observability.md wires it, through every outcome
// (success, failure, timeout, rejected, canceled), every transition of a
// trip and a recovery, and a crash, then returns one scrape of its
// /metrics handler in the text format.
func scrapeAfterEveryKindOfCall(t *testing.T) string {
	t.Helper()
	promReg := prometheus.NewRegistry()
	exporter, err := otelprom.New(otelprom.WithRegisterer(promReg))
	if err != nil {
		t.Fatal(err)
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exporter))
	defer func() { _ = mp.Shutdown(context.Background()) }()
	metrics := promhttp.HandlerFor(promReg, promhttp.HandlerOpts{})

	var text string
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		testkit.Register(t, e.Reg, "payments", target, tripwire.Settings{Threshold: 2, OpenTimeout: 10 * time.Second, CallTimeout: time.Second})
		testkit.Register(t, e.Reg, "ledger", target, tripwire.Settings{})
		mustCall := func(msg string, want error) {
			t.Helper()
			if _, err := e.Reg.Call(ctx, "payments", msg); !errors.Is(err, want) {
				t.Fatalf("Call(%s) = %v; want %v", msg, err, want)
			}
		}
		mustCall("ok", nil)                   // success
		mustCall("hang", tripwire.ErrTimeout) // timeout
		mustCall("fail", errDown)             // failure: closed → open
		mustCall("ok", tripwire.ErrOpen)      // rejected
		time.Sleep(10 * time.Second)          // open → half_open
		synctest.Wait()
		mustCall("ok", nil) // the probe: half_open → closed
		cctx, cancel := context.WithCancel(ctx)
		done := testkit.GoCall(cctx, e.Reg, "payments", "hang")
		synctest.Wait()
		cancel() // canceled
		if r := testkit.Await(t, done); !errors.Is(r.Err, context.Canceled) {
			t.Fatalf("cancelled call: %v", r.Err)
		}
		if err := tripwiretest.Crash(context.Background(), e.Reg, "ledger"); err != nil { // a restart
			t.Fatal(err)
		}
		synctest.Wait()
		rec := httptest.NewRecorder()
		metrics.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("/metrics: %d %s", rec.Code, rec.Body)
		}
		text = rec.Body.String()
	}, tripwire.WithMeterProvider(mp))
	return text
}

func TestEveryMetricAndLabelOfTheDashboardIsExported(t *testing.T) {
	// Given a scrape after every kind of call, transition and a restart
	s, err := parseScrape(scrapeAfterEveryKindOfCall(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []string{"success", "failure", "timeout", "rejected", "canceled"} {
		if !s["tripwire_calls_total"]["tripwire_outcome"][o] {
			t.Fatalf("the scrape has no %s call; the check would miss a misspelt outcome", o)
		}
	}
	raw, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}

	// When the dashboard's queries are read
	problems := check(raw, s)

	// Then every metric, label and value they use is in the scrape, and
	// every series of the scrape is on some panel
	for _, p := range problems {
		t.Error(p)
	}
}

func TestTheCheckCatchesMisspellings(t *testing.T) {
	s, err := parseScrape(scrapeAfterEveryKindOfCall(t))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	if problems := check(raw, s); len(problems) != 0 {
		t.Fatalf("the dashboard itself fails the check:\n%s", strings.Join(problems, "\n"))
	}
	// Each edit breaks the dashboard in one way an operator would only
	// notice as an empty panel.
	for _, edit := range []struct{ old, new string }{
		{`tripwire_calls_total{`, `tripwire_call_total{`},                                   // a metric
		{`tripwire_outcome=\"rejected\"`, `tripwire_outcome=\"reject\"`},                    // a value
		{`tripwire_outcome=~\"failure|timeout\"`, `tripwire_outcome=~\"failure|timeouts\"`}, // a value in a regex
		{`tripwire_state=\"half_open\"`, `tripwire_state=\"halfopen\"`},                     // a state
		{`sum by (tripwire_from, tripwire_to)`, `sum by (tripwire_from, tripwire_dest)`},    // a grouping label
		{`{{tripwire_from}} → {{tripwire_to}}`, `{{tripwire_from}} → {{to}}`},               // a legend label
		{`tripwire_key=~\"$key\"`, `key=~\"$key\"`},                                         // a matcher's label
		{`tripwire_call_duration_seconds_sum`, `tripwire_call_duration_seconds_total`},      // the histogram's sum goes unshown
	} {
		if !bytes.Contains(raw, []byte(edit.old)) {
			t.Fatalf("the dashboard has no %s to misspell", edit.old)
		}
		broken := bytes.Replace(raw, []byte(edit.old), []byte(edit.new), 1)
		if problems := check(broken, s); len(problems) == 0 {
			t.Errorf("replacing %s with %s went unnoticed", edit.old, edit.new)
		} else {
			t.Logf("%s → %s: %s", edit.old, edit.new, strings.SplitN(problems[0], "\n", 2)[0])
		}
	}
	// A series Tripwire starts to export is one the dashboard must show.
	s["tripwire_calls_in_flight"] = map[string]map[string]bool{"tripwire_key": {"payments": true}}
	if problems := check(raw, s); len(problems) != 1 || !strings.Contains(problems[0], "tripwire_calls_in_flight") {
		t.Errorf("a new series left out of the dashboard: %q", problems)
	}
}
