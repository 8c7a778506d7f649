package tripwirehttp_test

import (
	"context"
	"io"
	"net/http"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/internal/testkit/httpfake"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwirehttp"
)

// statusNext answers every request with the status in its X-Status header.
var statusNext = &httpfake.Transport{Fn: func(req *http.Request) (*http.Response, error) {
	code := http.StatusOK
	switch req.Header.Get("X-Status") {
	case "404":
		code = http.StatusNotFound
	case "503":
		code = http.StatusServiceUnavailable
	}
	return httpfake.Respond(req, code, http.StatusText(code)), nil
}}

// sendStatus sends a request that statusNext answers with code.
func sendStatus(t *testing.T, tr http.RoundTripper, code string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, fakeURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Status", code)
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatalf("RoundTrip (%s): %v", code, err)
	}
	return resp
}

func TestWithClassifierDecidesHowResponsesCount(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a classifier for which a 404 is a failure and a 503 counts
		// neither way
		classify := func(resp *http.Response, err error) state.Verdict {
			switch {
			case err != nil || resp.StatusCode == http.StatusNotFound:
				return state.Failure
			case resp.StatusCode == http.StatusServiceUnavailable:
				return state.Ignore
			}
			return state.Success
		}
		tr := fakeRig(t, e, statusNext, tripwirehttp.WithClassifier(classify),
			tripwirehttp.WithSettings(tripwire.Settings{Threshold: 2}))

		// When a 404, three 503s and a 404 come back
		for _, code := range []string{"404", "503", "503", "503", "404"} {
			_ = sendStatus(t, tr, code).Body.Close()
		}

		// Then the 503s did not reset the count: the second 404 opened it
		testkit.WantCircuit(t, e.Reg, fakeKey, state.Open, 2)
	})
}

func TestAPanickingClassifierCountsAFailureAndTheCallerStillGetsTheResponse(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		classify := func(*http.Response, error) state.Verdict { panic("classifier bug") }
		tr := fakeRig(t, e, statusNext, tripwirehttp.WithClassifier(classify))
		resp := sendStatus(t, tr, "200")
		if b, err := io.ReadAll(resp.Body); err != nil || string(b) != "OK" {
			t.Fatalf("body %q, %v; want OK", b, err)
		}
		_ = resp.Body.Close()
		testkit.WantCircuit(t, e.Reg, fakeKey, state.Closed, 1)
	})
}

func TestMetricsCountAFailureStatusAsAFailure(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		tr := fakeRig(t, e, statusNext)
		for _, code := range []string{"200", "404", "503"} {
			_ = sendStatus(t, tr, code).Body.Close()
		}
		var rm metricdata.ResourceMetrics
		if err := reader.Collect(context.Background(), &rm); err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				if sum, ok := m.Data.(metricdata.Sum[int64]); ok && m.Name == "tripwire.calls" {
					for _, dp := range sum.DataPoints {
						o, _ := dp.Attributes.Value(attribute.Key("tripwire.outcome"))
						got[o.AsString()] += dp.Value
					}
				}
			}
		}
		if got["success"] != 2 || got["failure"] != 1 {
			t.Fatalf("tripwire.calls by outcome %v; want 2 success (200, 404), 1 failure (503)", got)
		}
	}, tripwire.WithMeterProvider(mp))
}

func TestTheRoundTripRunsInTheCallsSpan(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a transport that records the span it runs in
		seen := make(chan trace.SpanContext, 1)
		next := &httpfake.Transport{Fn: func(req *http.Request) (*http.Response, error) {
			seen <- trace.SpanContextFromContext(req.Context())
			return httpfake.Respond(req, 200, "ok"), nil
		}}
		tr := fakeRig(t, e, next)

		// When a request is sent under a span of the caller's
		ctx, parent := tp.Tracer("test").Start(context.Background(), "caller")
		resp, err := send(t, tr, ctx)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		parent.End()

		// Then the transport ran in the tripwire.call span, a child of the
		// caller's
		inside := <-seen
		for _, s := range spans.Ended() {
			if s.Name() == "tripwire.call" {
				if s.SpanContext().SpanID() != inside.SpanID() || s.Parent().SpanID() != parent.SpanContext().SpanID() {
					t.Fatalf("round trip in span %v, tripwire.call is %v under %v", inside.SpanID(), s.SpanContext().SpanID(), s.Parent().SpanID())
				}
				return
			}
		}
		t.Fatal("no tripwire.call span")
	}, tripwire.WithTracerProvider(tp))
}
