package observe_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/stretchr/testify/require"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// scope is the label set the OTel Prometheus exporter adds to every series
// of Tripwire's meter.
const scope = `otel_scope_name="github.com/tripwire-go/tripwire",otel_scope_schema_url="",otel_scope_version=""`

// scrape fetches the metrics page once and returns its lines.
func scrape(t *testing.T, url string, client *http.Client) []string {
	t.Helper()
	resp, err := client.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return strings.Split(string(body), "\n")
}

func TestPrometheusScrapeShowsCallsStateAndTransitions(t *testing.T) {
	// Given the OTel Prometheus exporter on a registry of its own, served
	// over loopback, and a Tripwire registry metering with it
	// (as the README shows it)
	promReg := prometheus.NewRegistry()
	exporter, err := otelprom.New(otelprom.WithRegisterer(promReg))
	require.NoError(t, err)
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exporter))
	t.Cleanup(func() { require.NoError(t, mp.Shutdown(context.Background())) })
	sys := newSystem()
	reg, err := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithMeterProvider(mp))
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, reg.Shutdown(context.Background()))
		sys.Shutdown()
	})
	srv := httptest.NewServer(promhttp.HandlerFor(promReg, promhttp.HandlerOpts{}))
	t.Cleanup(srv.Close)

	var failing atomic.Bool
	target := tripwire.Func(func(context.Context, any) (any, error) {
		if failing.Load() {
			return nil, errBoom
		}
		return "ok", nil
	})
	require.NoError(t, reg.Register(context.Background(), "payments", target, tripwire.Settings{Threshold: 2, OpenTimeout: time.Hour}))
	require.NoError(t, reg.Register(context.Background(), "ledger", target, tripwire.Settings{}))
	tripped := make(chan state.Transition, 1)
	defer reg.Subscribe(func(tr state.Transition) {
		if tr.To != state.Open {
			return // the ledger's restart
		}
		select {
		case tripped <- tr:
		default:
		}
	})()

	// When the "ledger" breaker crashes, and on "payments" a call succeeds,
	// two fail and trip the circuit, and one is rejected
	require.NoError(t, tripwiretest.Crash(context.Background(), reg, "ledger"))
	_, err = reg.Call(context.Background(), "payments", "x")
	require.NoError(t, err)
	failing.Store(true)
	for range 2 {
		_, err = reg.Call(context.Background(), "payments", "x")
		require.ErrorIs(t, err, errBoom)
	}
	select {
	case tr := <-tripped: // the hub counted the restart and the trip before delivering it
		require.Equal(t, state.Open, tr.To)
	case <-time.After(10 * time.Second):
		t.Fatal("no transition delivered")
	}
	_, err = reg.Call(context.Background(), "payments", "x")
	require.ErrorIs(t, err, tripwire.ErrOpen)

	// Then one scrape shows the calls by outcome, the state and the trip,
	// under the exporter's names: dots become underscores, counters get
	// _total, the histogram gets its unit; and what did not happen yet at
	// 0, so that increase() sees its first step
	lines := scrape(t, srv.URL, srv.Client())
	for _, want := range []string{
		`# TYPE tripwire_calls_total counter`,
		`tripwire_calls_total{` + scope + `,tripwire_key="payments",tripwire_outcome="success"} 1`,
		`tripwire_calls_total{` + scope + `,tripwire_key="payments",tripwire_outcome="failure"} 2`,
		`tripwire_calls_total{` + scope + `,tripwire_key="payments",tripwire_outcome="rejected"} 1`,
		`tripwire_calls_total{` + scope + `,tripwire_key="payments",tripwire_outcome="timeout"} 0`,
		`tripwire_calls_total{` + scope + `,tripwire_key="payments",tripwire_outcome="canceled"} 0`,
		`# TYPE tripwire_call_duration_seconds histogram`,
		`tripwire_call_duration_seconds_count{` + scope + `,tripwire_outcome="failure"} 2`,
		`tripwire_call_duration_seconds_count{` + scope + `,tripwire_outcome="success"} 1`,
		`# TYPE tripwire_call_time_seconds_total counter`,
		`# TYPE tripwire_state gauge`,
		`tripwire_state{` + scope + `,tripwire_key="payments",tripwire_state="closed"} 0`,
		`tripwire_state{` + scope + `,tripwire_key="payments",tripwire_state="half_open"} 0`,
		`tripwire_state{` + scope + `,tripwire_key="payments",tripwire_state="open"} 1`,
		`# TYPE tripwire_transitions_total counter`,
		`tripwire_transitions_total{` + scope + `,tripwire_from="closed",tripwire_key="payments",tripwire_to="open"} 1`,
		`tripwire_transitions_total{` + scope + `,tripwire_from="open",tripwire_key="payments",tripwire_to="half_open"} 0`,
		`tripwire_transitions_total{` + scope + `,tripwire_from="closed",tripwire_key="ledger",tripwire_to="closed"} 1`,
		`tripwire_transitions_total{` + scope + `,tripwire_from="closed",tripwire_key="ledger",tripwire_to="open"} 0`,
		`# TYPE tripwire_restarts_total counter`,
		`tripwire_restarts_total{` + scope + `,tripwire_key="ledger"} 1`,
		`tripwire_restarts_total{` + scope + `,tripwire_key="payments"} 0`,
	} {
		require.Contains(t, lines, want)
	}
	var excerpt []string
	for _, l := range lines {
		if strings.Contains(l, `tripwire_key="payments"`) {
			excerpt = append(excerpt, l)
		}
	}
	// a key's series: 3 states, 5 outcomes, 4 of time (no rejected), its
	// restarts and 6 kinds of transition
	require.Len(t, excerpt, 3+5+4+1+6, "series beyond those expected:\n%s", strings.Join(excerpt, "\n"))
	t.Logf("scrape excerpt:\n%s", strings.Join(excerpt, "\n"))
}
