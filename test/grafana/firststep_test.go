package grafana

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// within bounds every wait on Prometheus: its start, a scrape, a query.
// Generous: on a busy machine a scrape every second may come late.
const within = 30 * time.Second

func TestAKeysFirstRestartsAndTripShowOnTheDashboard(t *testing.T) {
	needPrometheus(t)
	// Given a registry whose /metrics Prometheus scrapes every second, and
	// the dashboard's Restarts, Restarts per key, Trips per key and
	// Transitions panels and its Trips annotation, as users import them
	panels := dashboardQueries(t, "Restarts", "Restarts per key", "Trips per key", "Transitions", "annotation Trips")
	promReg := prometheus.NewRegistry()
	exporter, err := otelprom.New(otelprom.WithRegisterer(promReg))
	if err != nil {
		t.Fatal(err)
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exporter))
	t.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	reg := testkit.Start(t, testkit.NewSystem(t), tripwire.WithMeterProvider(mp))
	// gate keeps scrapes out while the key crashes and trips, so that none
	// sees a part of it: the steps all show in one scrape, as they would
	// between two scrapes of a real interval.
	var gate sync.RWMutex
	metrics := promhttp.HandlerFor(promReg, promhttp.HandlerOpts{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gate.RLock()
		defer gate.RUnlock()
		metrics.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close) // after Prometheus stops (cleanups run last-in first-out)
	prom := startPrometheus(t, strings.TrimPrefix(srv.URL, "http://"))

	// When a key is made, scraped, then crashes three times and trips
	before := time.Now()
	testkit.Register(t, reg, "payments", target, tripwire.Settings{Threshold: 1, OpenTimeout: time.Hour})
	eventually(t, prom, `tripwire_state{tripwire_key="payments"}`, func(s []sample) bool { return len(s) > 0 })
	restarts, trips := make(chan struct{}, 3), make(chan struct{}, 1)
	defer reg.Subscribe(func(tr state.Transition) { // the hub counted it before it delivers it
		c := trips
		if tr.Reason == state.ReasonRestarted {
			c = restarts
		}
		select { // never blocks: a transition beyond those awaited is not one
		case c <- struct{}{}:
		default:
		}
	})()
	gate.Lock()
	for range 3 {
		if err := tripwiretest.Crash(context.Background(), reg, "payments"); err != nil {
			gate.Unlock()
			t.Fatal(err)
		}
	}
	if _, err := reg.Call(context.Background(), "payments", "fail"); err == nil {
		gate.Unlock()
		t.Fatal("the failing call succeeded")
	}
	for _, c := range []chan struct{}{restarts, restarts, restarts, trips} {
		select {
		case <-c:
		case <-time.After(within):
			gate.Unlock()
			t.Fatal("the crashes and the trip were not all delivered")
		}
	}
	gate.Unlock()

	// Then, from the first scrape that has them, every panel counts all
	// three restarts and the trip. The queries are evaluated at that
	// scrape's time (so increase() does not extrapolate past it), and
	// their ranges reach back to before the key was made.
	first := firstScrapeWith(t, prom, `tripwire_restarts_total{tripwire_key="payments"}`, 3)
	span := (time.Duration(math.Ceil(first.Sub(before).Seconds())) + 1) * time.Second
	vars := strings.NewReplacer("$instance", ".*", "$key", "payments",
		"$__range", span.String(), "$__rate_interval", span.String())
	for _, c := range []struct {
		panel  string
		labels map[string]string // the series to read, by the labels the query keeps
		want   float64
	}{
		{"Restarts", nil, 3},
		{"Restarts per key", map[string]string{"tripwire_key": "payments"}, 3},
		{"Trips per key", map[string]string{"tripwire_key": "payments"}, 1},
		{"Transitions", map[string]string{"tripwire_from": "closed", "tripwire_to": "open"}, 1},
		{"Transitions", map[string]string{"tripwire_from": "closed", "tripwire_to": "closed"}, 3}, // each restart of a closed circuit
		{"annotation Trips", map[string]string{"tripwire_key": "payments"}, 1},
	} {
		expr := vars.Replace(panels[c.panel])
		got, err := prom.query(expr, first)
		if err != nil {
			t.Fatal(err)
		}
		v, ok := valueOf(got, c.labels)
		switch {
		case !ok:
			t.Errorf("%s %v: no series; want %v\n\t%s\n\tanswer: %v", c.panel, c.labels, c.want, expr, got)
		case math.Abs(v-c.want) > 1e-6:
			t.Errorf("%s %v = %v; want %v\n\t%s", c.panel, c.labels, v, c.want, expr)
		}
	}
}

// dashboardQueries returns the query of each named panel of the dashboard
// (a panel with one query), or of an annotation, named "annotation NAME".
func dashboardQueries(t *testing.T, names ...string) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	qs, _ := d.queries()
	out := map[string]string{}
	for _, name := range names {
		where := "panel " + name
		if strings.HasPrefix(name, "annotation ") {
			where = name
		}
		n := 0
		for _, q := range qs {
			if q.where == where {
				out[name] = q.expr
				n++
			}
		}
		if n != 1 {
			t.Fatalf("the dashboard has %d queries for %s; want one", n, where)
		}
	}
	return out
}

// eventually polls expr (evaluated now) until ok accepts its answer.
func eventually(t *testing.T, prom *promServer, expr string, ok func([]sample) bool) []sample {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		got, err := prom.query(expr, time.Time{})
		if err == nil && ok(got) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v %v after %v; prometheus's log:\n%s", expr, got, err, within, prom.logText())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// firstScrapeWith waits until Prometheus has scraped series (a selector of
// one series) at value want, and returns the time of the first scrape
// that had it.
func firstScrapeWith(t *testing.T, prom *promServer, series string, want float64) time.Time {
	t.Helper()
	var at float64
	eventually(t, prom, series+"[10m]", func(s []sample) bool {
		for _, p := range s {
			if p.value == want {
				at = p.at
				return true
			}
		}
		return false
	})
	return time.UnixMilli(int64(math.Round(at * 1000)))
}

// valueOf returns the value of the one point of s whose labels include
// labels.
func valueOf(s []sample, labels map[string]string) (float64, bool) {
	var found []float64
	for _, p := range s {
		match := true
		for k, v := range labels {
			if p.labels[k] != v {
				match = false
			}
		}
		if match {
			found = append(found, p.value)
		}
	}
	if len(found) != 1 {
		return 0, false
	}
	return found[0], true
}
