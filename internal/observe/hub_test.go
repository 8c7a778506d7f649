package observe

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/state"
)

// newSystem returns an actor system that logs nothing and whose dead-letter
// throttle goroutine ends quickly.
func newSystem() *actor.ActorSystem {
	return actor.NewActorSystem(
		actor.WithDeadLetterThrottleInterval(10*time.Millisecond),
		actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
}

// inBubble runs body in fake time with a fresh actor system and lets the
// bubble's goroutines end afterwards.
func inBubble(t *testing.T, body func(t *testing.T, sys *actor.ActorSystem)) {
	synctest.Test(t, func(t *testing.T) {
		sys := newSystem()
		defer func() {
			sys.Shutdown()
			time.Sleep(time.Minute)
			synctest.Wait()
		}()
		body(t, sys)
	})
}

func observedLog() (*zap.Logger, *observer.ObservedLogs) {
	core, logs := observer.New(zapcore.DebugLevel)
	return zap.New(core), logs
}

// transition returns the n-th transition of key in a cycle closed -> open
// -> half_open -> closed, at a distinct fake instant.
func transition(key string, n int) state.Transition {
	steps := []struct {
		from, to state.State
		reason   state.Reason
	}{
		{state.Closed, state.Open, state.ReasonThreshold},
		{state.Open, state.HalfOpen, state.ReasonOpenTimeout},
		{state.HalfOpen, state.Closed, state.ReasonProbeSucceeded},
	}
	s := steps[n%len(steps)]
	return state.Transition{
		Key: key, From: s.from, To: s.to, Reason: s.reason, Failures: n,
		Fresh: s.from == state.Closed, At: time.Unix(1_700_000_000, 0).Add(time.Duration(n) * time.Second),
	}
}

// collector gathers what a subscriber is given.
type collector struct {
	mu  sync.Mutex
	got []state.Transition
}

func (c *collector) add(t state.Transition) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, t)
}

func (c *collector) all() []state.Transition {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]state.Transition(nil), c.got...)
}

func TestHubDeliversEveryTransitionInOrderToEachSubscriber(t *testing.T) {
	inBubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a hub with two subscribers
		h := NewHub(sys, zap.NewNop(), nil, nil)
		var a, b collector
		h.Subscribe(a.add)
		h.Subscribe(b.add)

		// When two keys' transitions are handed to it, interleaved
		var want []state.Transition
		for n := range 300 {
			for _, key := range []string{"x", "y"} {
				tr := transition(key, n)
				want = append(want, tr)
				h.Transitioned(tr)
			}
		}
		synctest.Wait()

		// Then each subscriber got all of them in the order they were handed over
		require.Equal(t, want, a.all())
		require.Equal(t, want, b.all())
		require.NoError(t, h.Close(context.Background()))
	})
}

func TestHubPublishesAPointerOnTheEventStream(t *testing.T) {
	inBubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a hub and an EventStream subscriber
		h := NewHub(sys, zap.NewNop(), nil, nil)
		var got []any
		sub := sys.EventStream.Subscribe(func(evt any) { got = append(got, evt) })
		defer sys.EventStream.Unsubscribe(sub)

		// When two transitions are handed to it
		h.Transitioned(transition("x", 0))
		h.Transitioned(transition("x", 1))
		synctest.Wait()

		// Then each was published once, as a *Transition, in order
		require.Equal(t, []any{new(transition("x", 0)), new(transition("x", 1))}, got)
		require.NoError(t, h.Close(context.Background()))
	})
}

func TestHandingOverNeverWaitsForAStuckSubscriber(t *testing.T) {
	inBubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a subscriber stuck in its callback
		h := NewHub(sys, zap.NewNop(), nil, nil)
		release := make(chan struct{})
		h.Subscribe(func(state.Transition) { <-release })

		// When many more transitions than its buffer are handed over
		start := time.Now()
		for n := range 3 * SubscriberBuffer {
			h.Transitioned(transition("x", n))
		}
		synctest.Wait()

		// Then handing them over took no time, and the hub is idle again
		require.Zero(t, time.Since(start))
		h.mu.Lock()
		queued := len(h.queue)
		h.mu.Unlock()
		require.Zero(t, queued)
		close(release)
		require.NoError(t, h.Close(context.Background()))
	})
}

func TestHubIgnoresWhatIsHandedOverAfterClose(t *testing.T) {
	inBubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a closed hub and an EventStream subscriber
		h := NewHub(sys, zap.NewNop(), nil, nil)
		require.NoError(t, h.Close(context.Background()))
		published := 0
		sub := sys.EventStream.Subscribe(func(any) { published++ })
		defer sys.EventStream.Unsubscribe(sub)

		// When a transition and a restart are handed to it
		h.Transitioned(transition("x", 0))
		h.Restarted("x", "boom")
		synctest.Wait()

		// Then nothing is published, and a second Close does nothing
		require.Zero(t, published)
		require.NoError(t, h.Close(context.Background()))
	})
}

func TestSubscribeNilOrAfterCloseReturnsANoOp(t *testing.T) {
	inBubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a hub
		h := NewHub(sys, zap.NewNop(), nil, nil)

		// When Subscribe gets nil, it adds no subscriber
		unsubscribe := h.Subscribe(nil)
		require.NotNil(t, unsubscribe)
		unsubscribe()
		require.Empty(t, h.subs)

		// When Subscribe is called after Close, it adds none either
		require.NoError(t, h.Close(context.Background()))
		unsubscribe = h.Subscribe(func(state.Transition) { t.Error("called after Close") })
		require.NotNil(t, unsubscribe)
		unsubscribe()
		require.Empty(t, h.subs)
	})
}

func TestUnsubscribeRemovesTheSubscriberOnce(t *testing.T) {
	inBubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given two subscribers
		h := NewHub(sys, zap.NewNop(), nil, nil)
		var gone, stays collector
		unsubscribe := h.Subscribe(gone.add)
		h.Subscribe(stays.add)
		h.Transitioned(transition("x", 0))
		synctest.Wait()

		// When the first unsubscribes, twice, and another transition comes
		unsubscribe()
		unsubscribe()
		h.Transitioned(transition("x", 1))
		synctest.Wait()

		// Then only the second gets it, and one subscriber is left
		require.Len(t, gone.all(), 1)
		require.Len(t, stays.all(), 2)
		require.Len(t, h.subs, 1)
		require.NoError(t, h.Close(context.Background()))
	})
}

func TestCloseWaitsForARunningCallbackUntilCtxEnds(t *testing.T) {
	inBubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a subscriber that takes 3 s over a transition
		h := NewHub(sys, zap.NewNop(), nil, nil)
		var c collector
		h.Subscribe(func(tr state.Transition) {
			time.Sleep(3 * time.Second)
			c.add(tr)
		})
		h.Transitioned(transition("x", 0))
		synctest.Wait()

		// When Close gets 1 s
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start := time.Now()
		err := h.Close(ctx)

		// Then it gives up after that second with the ctx's error
		require.ErrorIs(t, err, context.DeadlineExceeded)
		require.Equal(t, time.Second, time.Since(start))
		require.Empty(t, c.all())
		// And the callback still finishes, and its goroutine ends
		time.Sleep(3 * time.Second)
		synctest.Wait()
		require.Len(t, c.all(), 1)
	})
}

// testKeys are a registry's keys as the metrics see them.
type testKeys struct {
	mu     sync.Mutex
	order  []string
	cfgs   map[string]*tactor.Config
	states map[string]state.State
}

// add registers key in state s and returns its Config.
func (k *testKeys) add(key string, s state.State) *tactor.Config {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cfgs == nil {
		k.cfgs, k.states = map[string]*tactor.Config{}, map[string]state.State{}
	}
	if _, ok := k.cfgs[key]; !ok {
		k.order = append(k.order, key)
		k.cfgs[key] = &tactor.Config{Key: key}
	}
	k.states[key] = s
	return k.cfgs[key]
}

// remove unregisters key.
func (k *testKeys) remove(key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.cfgs, key)
	delete(k.states, key)
}

func (k *testKeys) source(byKey bool) Source {
	return Source{
		Keys: func(yield func(string, state.State, *tactor.Config)) {
			k.mu.Lock()
			defer k.mu.Unlock()
			for _, key := range k.order {
				if cfg, ok := k.cfgs[key]; ok {
					yield(key, k.states[key], cfg)
				}
			}
		},
		Config: func(key string) *tactor.Config {
			k.mu.Lock()
			defer k.mu.Unlock()
			return k.cfgs[key]
		},
		ByKey: byKey,
	}
}

// metricsOn returns Tripwire's instruments on a ManualReader, for a
// registry of the keys of states (in their states).
func metricsOn(t *testing.T, states map[string]state.State) (*Metrics, *sdkmetric.ManualReader, *testKeys) {
	t.Helper()
	k := &testKeys{}
	for key, s := range states {
		k.add(key, s)
	}
	m, reader := metricsWith(t, k.source(false))
	return m, reader, k
}

// metricsWith returns Tripwire's instruments fed from src on a ManualReader.
func metricsWith(t *testing.T, src Source) (*Metrics, *sdkmetric.ManualReader) {
	t.Helper()
	reader := sdkmetric.NewManualReader()
	m, err := NewMetrics(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)), src)
	require.NoError(t, err)
	return m, reader
}

// read collects once and returns the metrics by name.
func read(t *testing.T, reader *sdkmetric.ManualReader) map[string]metricdata.Metrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(context.Background(), &rm))
	out := map[string]metricdata.Metrics{}
	for _, sm := range rm.ScopeMetrics {
		require.Equal(t, Scope, sm.Scope.Name)
		for _, m := range sm.Metrics {
			out[m.Name] = m
		}
	}
	return out
}

// sumPoints returns an int64 counter's points as "attr=value,..." -> value.
func sumPoints(t *testing.T, m metricdata.Metrics) map[string]int64 {
	t.Helper()
	return counterPoints[int64](t, m)
}

// counted drops a counter's points at 0: the series a key reports from
// when it is made, before it counts.
func counted[N int64 | float64](points map[string]N) map[string]N {
	out := map[string]N{}
	for k, v := range points {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

// counterPoints returns a counter's points as "attr=value,..." -> value.
func counterPoints[N int64 | float64](t *testing.T, m metricdata.Metrics) map[string]N {
	t.Helper()
	out := map[string]N{}
	if m.Data == nil {
		return out
	}
	sum, ok := m.Data.(metricdata.Sum[N])
	require.True(t, ok, "%s is a %T", m.Name, m.Data)
	for _, p := range sum.DataPoints {
		out[p.Attributes.Encoded(attribute.DefaultEncoder())] += p.Value
	}
	return out
}

func TestHubCountsTransitionsAndRestarts(t *testing.T) {
	inBubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a hub with metrics of a registry of x and y
		m, reader, _ := metricsOn(t, map[string]state.State{"x": state.Closed, "y": state.Closed})
		h := NewHub(sys, zap.NewNop(), m, nil)

		// When it is handed a trip and a half-open of x, a trip of y and two
		// restarts of x
		h.Transitioned(transition("x", 0))
		h.Transitioned(transition("x", 1))
		h.Transitioned(transition("y", 0))
		h.Restarted("x", "boom")
		h.Restarted("x", "boom")
		synctest.Wait()

		// Then tripwire.transitions counts them by key, from and to, and
		// tripwire.restarts by key (y's at 0)
		ms := read(t, reader)
		require.Equal(t, map[string]int64{
			"tripwire.from=closed,tripwire.key=x,tripwire.to=open":    1,
			"tripwire.from=open,tripwire.key=x,tripwire.to=half_open": 1,
			"tripwire.from=closed,tripwire.key=y,tripwire.to=open":    1,
		}, counted(sumPoints(t, ms["tripwire.transitions"])))
		require.Equal(t, map[string]int64{"tripwire.key=x": 2, "tripwire.key=y": 0}, sumPoints(t, ms["tripwire.restarts"]))
		require.NoError(t, h.Close(context.Background()))
	})
}

func TestCloseUnregistersTheStateGauge(t *testing.T) {
	inBubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a hub whose metrics report one key's state
		m, reader, _ := metricsOn(t, map[string]state.State{"x": state.Open})
		h := NewHub(sys, zap.NewNop(), m, nil)
		require.NotNil(t, read(t, reader)["tripwire.state"].Data)

		// When the hub closes
		require.NoError(t, h.Close(context.Background()))

		// Then the gauge is no longer observed
		_, reported := read(t, reader)["tripwire.state"]
		require.False(t, reported)
	})
}

func TestHubMakesAnInternalSpanPerTransition(t *testing.T) {
	inBubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a hub with a tracer
		rec := tracetest.NewSpanRecorder()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
		h := NewHub(sys, zap.NewNop(), nil, tp.Tracer(Scope))

		// When a trip is handed to it
		tr := transition("x", 0)
		tr.Failures = 5
		h.Transitioned(tr)
		synctest.Wait()

		// Then one internal root span records it at the transition's instant
		spans := rec.Ended()
		require.Len(t, spans, 1)
		s := spans[0]
		require.Equal(t, "tripwire.trip", s.Name())
		require.Equal(t, trace.SpanKindInternal, s.SpanKind())
		require.False(t, s.Parent().IsValid())
		require.True(t, tr.At.Equal(s.StartTime()))
		require.True(t, tr.At.Equal(s.EndTime()))
		require.ElementsMatch(t, []attribute.KeyValue{
			attribute.String("tripwire.key", "x"),
			attribute.String("tripwire.from", "closed"),
			attribute.String("tripwire.to", "open"),
			attribute.String("tripwire.reason", "threshold"),
			attribute.Int("tripwire.failures", 5),
		}, s.Attributes())
		require.NoError(t, h.Close(context.Background()))
	})
}

func TestOperationNamesTellAFreshTripFromARetrip(t *testing.T) {
	for _, c := range []struct {
		from, to state.State
		reason   state.Reason
		fresh    bool
		want     string
	}{
		{state.Closed, state.Open, state.ReasonThreshold, true, "trip"},
		{state.HalfOpen, state.Open, state.ReasonProbeFailed, false, "re_trip"},
		{state.HalfOpen, state.Open, state.ReasonProbeTimeout, false, "re_trip"},
		{state.Open, state.HalfOpen, state.ReasonOpenTimeout, false, "half_open"},
		{state.HalfOpen, state.Closed, state.ReasonProbeSucceeded, false, "reset"},
		{state.Open, state.Closed, state.ReasonRestarted, false, "restart"},
		{state.HalfOpen, state.Closed, state.ReasonRestarted, false, "restart"},
	} {
		t.Run(fmt.Sprintf("%v->%v/%s", c.from, c.to, c.reason), func(t *testing.T) {
			got := operation(state.Transition{From: c.from, To: c.to, Reason: c.reason, Fresh: c.fresh})
			require.Equal(t, c.want, got)
		})
	}
}
