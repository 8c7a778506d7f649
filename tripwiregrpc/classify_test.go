package tripwiregrpc_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/internal/testkit/grpcfake"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiregrpc"
)

// codeInvoker answers each call with the code its request names.
var codeInvoker = &grpcfake.Invoker{Fn: func(_ context.Context, req, reply any, _ []grpc.CallOption) error {
	switch req.(*wrapperspb.StringValue).GetValue() {
	case "NotFound":
		return status.Error(codes.NotFound, "no such thing")
	case "Unavailable":
		return status.Error(codes.Unavailable, "down")
	}
	grpcfake.EchoInto(req, reply)
	return nil
}}

func callFor(t *testing.T, intercept grpc.UnaryClientInterceptor, code string) error {
	t.Helper()
	return intercept(context.Background(), "/m", wrapperspb.String(code), new(wrapperspb.StringValue), nil, codeInvoker.Invoke)
}

func TestFailureCodesChooseWhatFails(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a classifier for which only NotFound is a failure
		intercept := fakeInterceptor(t, e, tripwiregrpc.WithClassifier(tripwiregrpc.FailureCodes(codes.NotFound)),
			tripwiregrpc.WithSettings(tripwire.Settings{Threshold: 2}))
		// When NotFound, Unavailable and NotFound come back, the
		// Unavailable reset the count; a second NotFound in a row opens it
		for _, c := range []string{"NotFound", "Unavailable", "NotFound"} {
			_ = callFor(t, intercept, c)
		}
		testkit.WantCircuit(t, e.Reg, fakeKey, state.Closed, 1)
		_ = callFor(t, intercept, "NotFound")
		testkit.WantCircuit(t, e.Reg, fakeKey, state.Open, 2)
	})
}

func TestPlainContextErrorsCountAsTheirCodes(t *testing.T) {
	// Given errors without a gRPC status of their own, as an interceptor
	// further down the chain, or an invoker of the program's, returns a
	// context's end; and status errors, whose code is the server's
	for _, tc := range []struct {
		err      error
		want     state.Verdict // DefaultClassify's
		wantOnly state.Verdict // FailureCodes(codes.Canceled)'s
	}{
		{context.DeadlineExceeded, state.Failure, state.Success},
		{fmt.Errorf("retry: %w", context.DeadlineExceeded), state.Failure, state.Success},
		{context.Canceled, state.Ignore, state.Failure},
		{fmt.Errorf("retry: %w", context.Canceled), state.Ignore, state.Failure},
		{status.Error(codes.NotFound, "no such thing"), state.Success, state.Success},
		{fmt.Errorf("%w (%w)", status.Error(codes.NotFound, "no such thing"), context.Canceled), state.Success, state.Success},
		{status.Error(codes.DeadlineExceeded, "too slow"), state.Failure, state.Success},
		{errors.New("no status"), state.Success, state.Success},
		{nil, state.Success, state.Success},
	} {
		// When they are classified, by default and by a classifier for
		// which only Canceled fails
		got, gotOnly := tripwiregrpc.DefaultClassify(tc.err), tripwiregrpc.FailureCodes(codes.Canceled)(tc.err)

		// Then a context error counts as its code: a deadline as
		// DeadlineExceeded, a cancellation as Canceled; a status wins
		if got != tc.want || gotOnly != tc.wantOnly {
			t.Errorf("%v: DefaultClassify %v, FailureCodes(Canceled) %v; want %v, %v", tc.err, got, gotOnly, tc.want, tc.wantOnly)
		}
	}
}

func TestAPlainDeadlineFromBelowCountsAFailureAndACancellationNeitherWay(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an invoker (an interceptor below this one) that returns its
		// context's errors as they are, behind a breaker that opens on the
		// 2nd failure
		var plain error
		inv := &grpcfake.Invoker{Fn: func(context.Context, any, any, []grpc.CallOption) error { return plain }}
		intercept := fakeInterceptor(t, e, tripwiregrpc.WithSettings(tripwire.Settings{Threshold: 2}))
		call := func(err error) {
			plain = err
			_ = intercept(context.Background(), "/m", wrapperspb.String("hi"), new(wrapperspb.StringValue), nil, inv.Invoke)
		}

		// When it returns context.DeadlineExceeded, then context.Canceled
		call(context.DeadlineExceeded)
		testkit.WantCircuit(t, e.Reg, fakeKey, state.Closed, 1)
		call(context.Canceled)

		// Then the deadline counted as a failure, and the cancellation
		// neither way: it did not reset the count, and the next deadline
		// opens the circuit
		testkit.WantCircuit(t, e.Reg, fakeKey, state.Closed, 1)
		call(context.DeadlineExceeded)
		testkit.WantCircuit(t, e.Reg, fakeKey, state.Open, 2)
	})
}

func TestAPanickingClassifierCountsAFailureAndTheCallerStillGetsTheReply(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		intercept := fakeInterceptor(t, e, tripwiregrpc.WithClassifier(func(error) state.Verdict { panic("classifier bug") }))
		out := new(wrapperspb.StringValue)
		err := intercept(context.Background(), "/m", wrapperspb.String("hi"), out, nil, codeInvoker.Invoke)
		if err != nil || out.GetValue() != "echo: hi" {
			t.Fatalf("call: %q, %v", out.GetValue(), err)
		}
		testkit.WantCircuit(t, e.Reg, fakeKey, state.Closed, 1)
	})
}

func TestMetricsCountWhatTheBreakerCounts(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		intercept := fakeInterceptor(t, e)
		for _, c := range []string{"OK", "NotFound", "Unavailable"} {
			_ = callFor(t, intercept, c)
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
			t.Fatalf("tripwire.calls by outcome %v; want 2 success (OK, NotFound), 1 failure (Unavailable)", got)
		}
	}, tripwire.WithMeterProvider(mp))
}
