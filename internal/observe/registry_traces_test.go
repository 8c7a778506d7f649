package observe_test

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// ended returns the ended spans whose name starts with prefix, in the order
// they ended.
func (r *rig) ended(prefix string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range r.spans.Ended() {
		if strings.HasPrefix(s.Name(), prefix) {
			out = append(out, s)
		}
	}
	return out
}

// attrs returns a span's attributes as strings.
func attrs(s sdktrace.ReadOnlySpan) map[string]string {
	out := map[string]string{}
	for _, kv := range s.Attributes() {
		out[string(kv.Key)] = kv.Value.Emit()
	}
	return out
}

// callUnder calls key with msg inside a span of the caller's own and
// returns that span's context and the call's error.
func (r *rig) callUnder(key, msg string) (trace.SpanContext, error) {
	ctx, parent := r.tracer.Start(context.Background(), "caller")
	defer parent.End()
	_, err := r.reg.Call(ctx, key, msg)
	return parent.SpanContext(), err
}

func TestCallSpanIsAChildOfTheCallersSpanAndReachesTheTarget(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a caller with a span of its own
		// When it calls through the breaker and the target succeeds
		parent, err := r.callUnder("k", msgOK)
		require.NoError(t, err)

		// Then there is one tripwire.call span in the caller's trace, whose
		// parent is the caller's span, with the key and the outcome
		calls := r.ended("tripwire.call")
		require.Len(t, calls, 1)
		s := calls[0]
		require.Equal(t, "tripwire.call", s.Name())
		require.Equal(t, parent.TraceID(), s.SpanContext().TraceID())
		require.Equal(t, parent.SpanID(), s.Parent().SpanID())
		require.Equal(t, trace.SpanKindClient, s.SpanKind())
		require.Equal(t, map[string]string{"tripwire.key": "k", "tripwire.outcome": "success"}, attrs(s))
		require.Equal(t, codes.Unset, s.Status().Code)
		require.Equal(t, "github.com/tripwire-go/tripwire", s.InstrumentationScope().Name)

		// And the target's ctx carried the tripwire.call span itself
		inside := r.seenInside()
		require.Len(t, inside, 1)
		require.Equal(t, s.SpanContext(), inside[0])
	})
}

func TestCallSpanOfAFailureHasErrorStatus(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a caller with a span of its own
		// When the target fails, and then a call times out
		_, err := r.callUnder("k", msgFail)
		require.ErrorIs(t, err, errBoom)
		start := time.Now()
		_, err = r.callUnder("k", msgWait)
		require.ErrorIs(t, err, tripwire.ErrTimeout)

		// Then both spans have error status with the error's text and their outcome
		calls := r.ended("tripwire.call")
		require.Len(t, calls, 2)
		require.Equal(t, codes.Error, calls[0].Status().Code)
		require.Equal(t, errBoom.Error(), calls[0].Status().Description)
		require.Equal(t, "failure", attrs(calls[0])["tripwire.outcome"])
		require.Equal(t, codes.Error, calls[1].Status().Code)
		require.Equal(t, tripwire.ErrTimeout.Error(), calls[1].Status().Description)
		require.Equal(t, "timeout", attrs(calls[1])["tripwire.outcome"])
		// And the timed-out span lasted the call timeout in fake time
		require.True(t, start.Equal(calls[1].StartTime()))
		require.Equal(t, callTimeout, calls[1].EndTime().Sub(calls[1].StartTime()))
	})
}

func TestCallWithoutCallerSpanStartsARootSpan(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a caller without a span
		// When it calls
		require.NoError(t, r.call("k", msgOK))

		// Then the tripwire.call span is a root span, and the target saw it
		calls := r.ended("tripwire.call")
		require.Len(t, calls, 1)
		require.False(t, calls[0].Parent().IsValid())
		require.True(t, calls[0].SpanContext().IsValid())
		require.Equal(t, []trace.SpanContext{calls[0].SpanContext()}, r.seenInside())
	})
}

func TestFastFailRejectionMakesNoSpan(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given an open circuit
		r.trip(t, "k")
		before := len(r.ended("tripwire.call"))
		require.Equal(t, threshold, before)

		// When calls are rejected
		for range 3 {
			_, err := r.callUnder("k", msgOK)
			require.ErrorIs(t, err, tripwire.ErrOpen)
		}

		// Then no tripwire.call span was made for them
		require.Len(t, r.ended("tripwire.call"), before)
		require.Len(t, r.ended("caller"), 3)
	})
}

// wantSpan is what a test expects of one state-change span.
type wantSpan struct {
	name, from, to, reason string
	at                     time.Time
}

func TestEachStateChangeMakesAShortInternalSpan(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a registry with a tracer provider
		// When the circuit goes through a whole cycle, trips again and its
		// breaker crashes while open
		w := cycle(t, r, "k")
		time.Sleep(time.Second)
		opened := r.trip(t, "k")
		time.Sleep(time.Second)
		require.NoError(t, tripwiretest.Crash(context.Background(), r.reg, "k"))
		restarted := time.Now()
		synctest.Wait()

		// Then there is one internal span per change, named after what
		// happened (a fresh trip apart from a re-trip), at the moment it
		// happened, with key, from, to and reason
		wants := []wantSpan{
			{"tripwire.trip", "closed", "open", "threshold", w[0].at},
			{"tripwire.half_open", "open", "half_open", "open_timeout", w[1].at},
			{"tripwire.re_trip", "half_open", "open", "probe_failed", w[2].at},
			{"tripwire.half_open", "open", "half_open", "open_timeout", w[3].at},
			{"tripwire.reset", "half_open", "closed", "probe_succeeded", w[4].at},
			{"tripwire.trip", "closed", "open", "threshold", opened},
			{"tripwire.restart", "open", "closed", "restarted", restarted},
		}
		var got []sdktrace.ReadOnlySpan
		for _, s := range r.ended("tripwire.") {
			if s.Name() != "tripwire.call" {
				got = append(got, s)
			}
		}
		require.Len(t, got, len(wants))
		for i, want := range wants {
			s := got[i]
			require.Equal(t, want.name, s.Name(), "span %d", i)
			require.Equal(t, trace.SpanKindInternal, s.SpanKind(), want.name)
			a := attrs(s)
			require.Equal(t, "k", a["tripwire.key"], want.name)
			require.Equal(t, want.from, a["tripwire.from"], want.name)
			require.Equal(t, want.to, a["tripwire.to"], want.name)
			require.Equal(t, want.reason, a["tripwire.reason"], want.name)
			require.Truef(t, want.at.Equal(s.StartTime()), "%s started at %v, want %v", want.name, s.StartTime(), want.at)
			require.Equal(t, s.StartTime(), s.EndTime(), want.name)
			require.False(t, s.Parent().IsValid(), "%s has a parent", want.name)
		}
	})
}
