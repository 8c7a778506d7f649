package bench

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

// The cost of observability on the call path: the same Call with no
// provider, with a meter provider (SDK, ManualReader: every call is
// aggregated in memory), with a tracer provider (SDK, sampling every span,
// no exporter) and with both. With no provider the path must cost what it
// cost before observability existed: compare "none" with
// BenchmarkTripwireClosedFunc and BenchmarkTripwireOpen.

// obsVariant is one way of wiring observability into a registry.
type obsVariant struct {
	name   string
	meter  bool
	tracer bool
}

var obsVariants = []obsVariant{
	{"none", false, false},
	{"metrics", true, false},
	{"traces", false, true},
	{"both", true, true},
}

// obsMsg is the benchmark's message; obsSpanQuery asks the target whether
// its ctx carries a recording span.
var (
	obsMsg       = &struct{ n int }{1}
	obsSpanQuery = &struct{ n int }{2}
	obsErr       = errors.New("down")
)

func obsEcho(ctx context.Context, m any) (any, error) {
	if m == any(obsSpanQuery) {
		return trace.SpanFromContext(ctx).IsRecording(), nil
	}
	return m, nil
}

// obsRegistry starts a registry wired as v says, on an actor system of its
// own; both stop when tb ends. It returns the metric reader, nil without one.
func obsRegistry(tb testing.TB, v obsVariant) (*tripwire.Registry, *metric.ManualReader) {
	tb.Helper()
	var opts []tripwire.Option
	var reader *metric.ManualReader
	if v.meter {
		reader = metric.NewManualReader()
		opts = append(opts, tripwire.WithMeterProvider(metric.NewMeterProvider(metric.WithReader(reader))))
	}
	if v.tracer {
		opts = append(opts, tripwire.WithTracerProvider(sdktrace.NewTracerProvider()))
	}
	reg := testkit.Start(tb, testkit.NewSystem(tb), opts...)
	return reg, reader
}

// obsClosed returns a registry whose key "echo" is a closed breaker in front
// of obsEcho.
func obsClosed(tb testing.TB, v obsVariant) (*tripwire.Registry, *metric.ManualReader) {
	reg, reader := obsRegistry(tb, v)
	if err := reg.Register(context.Background(), "echo", tripwire.Func(obsEcho), tripwire.Settings{CallTimeout: 5 * time.Second}); err != nil {
		tb.Fatalf("Register: %v", err)
	}
	return reg, reader
}

// obsOpen returns a registry whose key "down" is open for an hour.
func obsOpen(tb testing.TB, v obsVariant) (*tripwire.Registry, *metric.ManualReader) {
	reg, reader := obsRegistry(tb, v)
	fail := func(context.Context, any) (any, error) { return nil, obsErr }
	if err := reg.Register(context.Background(), "down", tripwire.Func(fail),
		tripwire.Settings{Threshold: 1, OpenTimeout: time.Hour, CallTimeout: 5 * time.Second}); err != nil {
		tb.Fatalf("Register: %v", err)
	}
	if _, err := reg.Call(context.Background(), "down", obsMsg); !errors.Is(err, obsErr) {
		tb.Fatalf("tripping call: got %v, want %v", err, obsErr)
	}
	// The breaker publishes Open before it answers the tripping call.
	if st, err := reg.State("down"); err != nil || st != state.Open {
		tb.Fatalf("state (%v, %v), want open", st, err)
	}
	return reg, reader
}

func BenchmarkObservedClosedFunc(b *testing.B) {
	for _, v := range obsVariants {
		b.Run(v.name, func(b *testing.B) {
			reg, _ := obsClosed(b, v)
			ctx := context.Background()
			for b.Loop() {
				if v, err := reg.Call(ctx, "echo", obsMsg); err != nil || v != any(obsMsg) {
					b.Fatalf("got (%v, %v)", v, err)
				}
			}
		})
	}
}

func BenchmarkObservedOpen(b *testing.B) {
	for _, v := range obsVariants {
		b.Run(v.name, func(b *testing.B) {
			reg, _ := obsOpen(b, v)
			ctx := context.Background()
			for b.Loop() {
				if _, err := reg.Call(ctx, "down", obsMsg); !errors.Is(err, tripwire.ErrOpen) {
					b.Fatalf("got %v, want ErrOpen", err)
				}
			}
		})
	}
}

// The benchmarks compare only if each variant really observes what it
// claims: these tests check that, and that "none" allocates nothing extra.

func TestObservedSetupsRecordWhatTheyClaim(t *testing.T) {
	for _, v := range obsVariants {
		t.Run(v.name, func(t *testing.T) {
			// Given a closed breaker wired as the variant says
			reg, reader := obsClosed(t, v)
			// When it is called
			recording, err := reg.Call(context.Background(), "echo", obsSpanQuery)
			if err != nil {
				t.Fatal(err)
			}
			// Then the target sees a recording span exactly with a tracer
			if recording != v.tracer {
				t.Errorf("span recording in the target: %v, want %v", recording, v.tracer)
			}
			// And the call is counted exactly with a meter
			if v.meter {
				var rm metricdata.ResourceMetrics
				if err := reader.Collect(context.Background(), &rm); err != nil {
					t.Fatal(err)
				}
				if n := obsCalls(rm); n != 1 {
					t.Errorf("tripwire.calls = %d, want 1", n)
				}
			}
		})
	}
}

func obsCalls(rm metricdata.ResourceMetrics) int64 {
	var n int64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if s, ok := m.Data.(metricdata.Sum[int64]); ok && m.Name == "tripwire.calls" {
				for _, p := range s.DataPoints {
					n += p.Value
				}
			}
		}
	}
	return n
}

func TestUnobservedOpenCallAllocatesNothing(t *testing.T) {
	// Given an open breaker with no provider
	reg, _ := obsOpen(t, obsVariants[0])
	ctx := context.Background()
	// When it is called
	allocs := testing.AllocsPerRun(1000, func() {
		if _, err := reg.Call(ctx, "down", obsMsg); !errors.Is(err, tripwire.ErrOpen) {
			t.Fatalf("got %v, want ErrOpen", err)
		}
	})
	// Then the call allocates nothing
	if allocs != 0 {
		t.Errorf("%v allocs per rejected call, want 0", allocs)
	}
}
