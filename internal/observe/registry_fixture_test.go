package observe_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/system"
	"github.com/tripwire-go/tripwire/state"
)

// The timing of the rig's key: open on the 3rd failure, half-open 10 s
// later, 1 s per call.
const (
	threshold   = 3
	openTimeout = 10 * time.Second
	callTimeout = time.Second
)

var errBoom = errors.New("boom")

// newSystem returns an actor system whose dead-letter throttle goroutine
// ends quickly, so synctest and goleak see no goroutine left behind.
func newSystem() *actor.ActorSystem {
	return system.New(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
}

// observed returns a logger whose entries, at every level, the test reads.
func observed() (*zap.Logger, *observer.ObservedLogs) {
	core, logs := observer.New(zapcore.DebugLevel)
	return zap.New(core), logs
}

// Messages the observed target understands.
const (
	msgOK   = "ok"   // succeeds
	msgFail = "fail" // returns errBoom
	msgWait = "wait" // waits until the call is given up, then returns ctx.Err()
	// msgLookalike fails with errors of its own that wrap what Tripwire's
	// answers are: context.Canceled, ErrOpen and ErrTimeout, in turn.
	msgLookalike = "lookalike"
)

// lookalikes are the errors msgLookalike returns, in turn.
var lookalikes = []error{
	fmt.Errorf("upstream: %w", context.Canceled),
	fmt.Errorf("inner key: %w", tripwire.ErrOpen),
	fmt.Errorf("inner key: %w", tripwire.ErrTimeout),
}

// rig is a registry with every observability option wired to something a
// test can read: an observed zap logger, a metric ManualReader and a span
// recorder. Key "k" is served by the rig's own target.
type rig struct {
	reg    *tripwire.Registry
	sys    *actor.ActorSystem
	logs   *observer.ObservedLogs
	reader *sdkmetric.ManualReader
	spans  *tracetest.SpanRecorder
	// tracer makes the callers' own spans, on the same provider.
	tracer trace.Tracer

	mu        sync.Mutex
	inside    []trace.SpanContext // the span each target invocation saw in its ctx
	lookalike int                 // msgLookalike's calls so far
}

// observeBubble runs body in fake time against a fresh rig, then shuts
// everything down and lets the bubble's goroutines end.
func observeBubble(t *testing.T, body func(t *testing.T, r *rig)) {
	observeBubbleWith(t, nil, body)
}

// observeBubbleWith is observeBubble with more options for Start.
func observeBubbleWith(t *testing.T, opts []tripwire.Option, body func(t *testing.T, r *rig)) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, opts...)
		defer func() { // also after a failed require, so the bubble ends clean
			r.shutdown(t)
			time.Sleep(time.Minute)
			synctest.Wait()
		}()
		body(t, r)
	})
}

func newRig(t *testing.T, opts ...tripwire.Option) *rig {
	t.Helper()
	logger, logs := observed()
	r := &rig{sys: newSystem(), logs: logs, reader: sdkmetric.NewManualReader(), spans: tracetest.NewSpanRecorder()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(r.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.reader))
	r.tracer = tp.Tracer("caller")
	reg, err := tripwire.Start(append([]tripwire.Option{tripwire.WithActorSystem(r.sys), tripwire.WithLogger(logger),
		tripwire.WithMeterProvider(mp), tripwire.WithTracerProvider(tp)}, opts...)...)
	require.NoError(t, err)
	r.reg = reg
	r.register(t, "k")
	return r
}

// register adds key in front of the rig's target, with the timing tests'
// settings: open on the 3rd failure, half-open 10 s later, 1 s per call.
func (r *rig) register(t *testing.T, key string) {
	t.Helper()
	require.NoError(t, r.reg.Register(context.Background(), key, tripwire.Func(r.target), tripwire.Settings{
		Threshold: threshold, OpenTimeout: openTimeout, CallTimeout: callTimeout,
	}))
}

func (r *rig) target(ctx context.Context, msg any) (any, error) {
	r.mu.Lock()
	r.inside = append(r.inside, trace.SpanFromContext(ctx).SpanContext())
	r.mu.Unlock()
	switch msg {
	case msgFail:
		return nil, errBoom
	case msgWait:
		<-ctx.Done()
		return nil, ctx.Err()
	case msgLookalike:
		r.mu.Lock()
		defer r.mu.Unlock()
		r.lookalike++
		return nil, lookalikes[(r.lookalike-1)%len(lookalikes)]
	}
	return msg, nil
}

// seenInside returns the span contexts the target's invocations saw.
func (r *rig) seenInside() []trace.SpanContext {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]trace.SpanContext(nil), r.inside...)
}

func (r *rig) shutdown(t *testing.T) {
	t.Helper()
	if err := r.reg.Shutdown(context.Background()); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	r.sys.Shutdown()
}

// call calls key with msg and returns the error.
func (r *rig) call(key, msg string) error {
	_, err := r.reg.Call(context.Background(), key, msg)
	return err
}

// trip opens key with threshold failing calls and returns the fake time it
// opened at; every goroutine of the bubble has settled when it returns.
func (r *rig) trip(t *testing.T, key string) time.Time {
	t.Helper()
	for range threshold {
		require.ErrorIs(t, r.call(key, msgFail), errBoom)
	}
	opened := time.Now()
	synctest.Wait()
	r.requireState(t, key, state.Open)
	return opened
}

// halfOpen waits until just past the moment key's recovery timer fires for a
// circuit opened at opened (1 ms past it: no tie with the timer), and returns
// that moment.
func (r *rig) halfOpen(t *testing.T, key string, opened time.Time) time.Time {
	t.Helper()
	at := opened.Add(openTimeout)
	time.Sleep(time.Until(at) + time.Millisecond)
	synctest.Wait()
	r.requireState(t, key, state.HalfOpen)
	return at
}

func (r *rig) requireState(t *testing.T, key string, want state.State) {
	t.Helper()
	st, err := r.reg.State(key)
	require.NoError(t, err)
	require.Equal(t, want, st, "state of %q", key)
}

// recorder collects transitions delivered to a Subscribe callback.
type recorder struct {
	mu  sync.Mutex
	got []state.Transition
}

func (c *recorder) add(tr state.Transition) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, tr)
}

func (c *recorder) all() []state.Transition {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]state.Transition(nil), c.got...)
}

// requireSameInstant fails unless got and want are the same instant.
func requireSameInstant(t *testing.T, want, got time.Time, what string) {
	t.Helper()
	require.Truef(t, want.Equal(got), "%s: got %v, want %v", what, got, want)
}
